/*
 * gx_service_worker.c: the background worker that supervises the GPU service. It starts the
 * gpuexact-service program (installed beside the extension) as a child process of its own, outside
 * PostgreSQL's shared memory (exec), and starts it again whenever it exits or is killed: a service that
 * dies, even by a signal, never makes the postmaster reset the backends. The child dies with the worker
 * (PR_SET_PDEATHSIG), the worker with the postmaster.
 */
#include "postgres.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "utils/timestamp.h"

#include "gx_settings.h"
#include "service/gx_service.h"

PGDLLEXPORT void gx_service_worker_main(Datum arg);

#define RESTART_DELAY_MS 200
#define QUICK_EXIT_MS 5000			/* a service that lives less than this is restarted after this */

static bool registered = false;
static volatile sig_atomic_t shutdown_requested = false;

bool
gx_service_started(void)
{
	return registered && gx_service_enabled;
}

void
gx_service_socket_path(char *buf, size_t size)
{
	/* relative: the service and every backend work in the data directory, which only its owner can enter */
	snprintf(buf, size, "gpuexact_service.sock");
}

void
gx_service_register(void)
{
	BackgroundWorker w;

	if (!gx_service_enabled)
		return;
	memset(&w, 0, sizeof(w));
	w.bgw_flags = BGWORKER_SHMEM_ACCESS;
	w.bgw_start_time = BgWorkerStart_PostmasterStart;
	w.bgw_restart_time = 1;
	snprintf(w.bgw_library_name, BGW_MAXLEN, "gpuexact");
	snprintf(w.bgw_function_name, BGW_MAXLEN, "gx_service_worker_main");
	snprintf(w.bgw_name, BGW_MAXLEN, "gpuexact GPU service supervisor");
	snprintf(w.bgw_type, BGW_MAXLEN, "gpuexact service");
	RegisterBackgroundWorker(&w);
	registered = true;
}

static void
on_sigterm(SIGNAL_ARGS)
{
	int			save_errno = errno;

	shutdown_requested = true;
	SetLatch(MyLatch);
	errno = save_errno;
}

/* Starts the service; its pid, or -1. Nothing but async-signal-safe calls between fork and exec. */
static pid_t
start_service(void)
{
	char		program[MAXPGPATH],
				socket_path[MAXPGPATH],
				cuda_library[MAXPGPATH],
				device[16],
				cache_mb[16],
				device_mb[16];
	/* the service's engine argument, by gpuexact.service_cpu */
	const char *engine = gx_service_cpu == GX_SERVICE_CPU_ON ? "cpu" : gx_service_cpu == GX_SERVICE_CPU_OFF ? "gpu" : "auto";
	GxBatchOptions opt;
	sigset_t	none;
	pid_t		pid;

	gx_settings_batch_options(&opt);
	snprintf(program, sizeof(program), "%s/gpuexact-service", pkglib_path);
	snprintf(cuda_library, sizeof(cuda_library), "%s", opt.cuda_library);
	snprintf(device, sizeof(device), "%d", opt.cuda_device);
	snprintf(cache_mb, sizeof(cache_mb), "%d", gx_service_cache_mb);
	snprintf(device_mb, sizeof(device_mb), "%d", gx_service_device_mb);
	gx_service_socket_path(socket_path, sizeof(socket_path));
	sigemptyset(&none);
	/* the service's OpenMP threads sleep between batches: no spinning cores taken from the backends */
	setenv("OMP_WAIT_POLICY", "PASSIVE", 1);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
	{
		sigprocmask(SIG_SETMASK, &none, NULL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		closefrom(3);
		execl(program, program, socket_path, cuda_library, device, cache_mb, engine, device_mb, (char *) NULL);
		_exit(127);
	}
	if (pid < 0)
		ereport(LOG, (errmsg("gpuexact: could not start the GPU service: %m")));
	else
		ereport(LOG, (errmsg("gpuexact: GPU service started (pid %d, socket %s)", (int) pid, socket_path)));
	return pid;
}

void
gx_service_worker_main(Datum arg)
{
	pid_t		child = -1;
	TimestampTz next_start = 0;

	pqsignal(SIGTERM, on_sigterm);
	BackgroundWorkerUnblockSignals();
	for (;;)
	{
		int			status;

		if (shutdown_requested)
		{
			if (child > 0)
			{
				kill(child, SIGTERM);
				waitpid(child, &status, 0);
			}
			proc_exit(0);
		}
		if (child <= 0 && GetCurrentTimestamp() >= next_start)
		{
			child = start_service();
			next_start = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), QUICK_EXIT_MS);
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, RESTART_DELAY_MS,
						 PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		if (child > 0 && waitpid(child, &status, WNOHANG) == child)
		{
			/* at shutdown the postmaster's SIGTERM reaches the service too: no restart to tell of */
			if (shutdown_requested)
				proc_exit(0);
			if (WIFSIGNALED(status))
				ereport(LOG, (errmsg("gpuexact: GPU service (pid %d) was killed by signal %d; starting it again",
									 (int) child, WTERMSIG(status))));
			else
				ereport(LOG, (errmsg("gpuexact: GPU service (pid %d) exited with status %d; starting it again",
									 (int) child, WEXITSTATUS(status))));
			child = -1;
			/* one that keeps dying at once is started again every few seconds, not continuously */
			if (GetCurrentTimestamp() < next_start)
				next_start = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), QUICK_EXIT_MS);
			else
				next_start = 0;
		}
	}
}
