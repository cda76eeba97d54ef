/* gx_threads.c: the engine's thread count and the cluster-wide thread budget (see gx_threads.h). */
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/gx_interrupt.h"
#include "base/gx_threads.h"

#define MAX_THREADS 256

int
gx_threads_cores(void)
{
	long		n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int) n;
}

static int	proven = 1;			/* this many threads were started once: OpenMP can have them too */

static void *
idle(void *arg)
{
	return arg;
}

/* OpenMP's stack size for its threads when set by OMP_STACKSIZE / GOMP_STACKSIZE; 0: the threads' default. */
static size_t
omp_stack_size(void)
{
	const char *env = getenv("OMP_STACKSIZE") ? getenv("OMP_STACKSIZE") : getenv("GOMP_STACKSIZE");
	char	   *end;
	double		v = env ? strtod(env, &end) : 0;

	if (v <= 0)
		return 0;
	return (size_t) (v * ((*end == 'B' || *end == 'b') ? 1 : (*end == 'M' || *end == 'm') ? 1 << 20 :
						  (*end == 'G' || *end == 'g') ? 1 << 30 : 1 << 10));
}

/* How many of n - 1 extra threads (plus the caller) can be started together right now. */
static int
startable(int n)
{
	pthread_t	t[MAX_THREADS];
	pthread_attr_t attr;
	int			started = 0,
				k;

	if (pthread_attr_init(&attr) != 0)
		return 1;
	if (omp_stack_size() > 0)
		pthread_attr_setstacksize(&attr, omp_stack_size());
	while (started + 1 < n && pthread_create(&t[started], &attr, idle, NULL) == 0)
		started++;
	for (k = 0; k < started; k++)
		pthread_join(t[k], NULL);
	pthread_attr_destroy(&attr);
	return started + 1;
}

/*
 * Has OpenMP start (or keep) its n threads with every signal blocked: they inherit the mask, and a signal
 * handler of the host's (PostgreSQL's cancel, timeout and latch handlers, installed with its interrupt
 * hook) must run on the caller's thread only. A team already this large costs one wake-up.
 */
static void
start_pool(int n)
{
	sigset_t	all,
				old;

	if (n < 2 || gx_check_interrupts == NULL)
		return;					/* a program without the host's signal handlers (the GPU service) */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	#pragma omp parallel num_threads(n)
	{
		/* nothing: the team exists from here on */
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int
gx_threads_usable(int wanted)
{
	int			cores = gx_threads_cores();
	int			n = wanted <= 0 || wanted > cores ? cores : wanted;

	if (n > proven)
	{
		n = startable(n);
		proven = n > proven ? n : proven;
	}
	omp_set_num_threads(n);
	start_pool(n);
	return n;
}

/* The budget's token files, opened once per process (and directory), and the tokens now held. */
static char budget_path[4096];
static int	token_fd[MAX_THREADS];
static int	tokens = -1;		/* token files open; -1: none yet */
static int	held[MAX_THREADS];
static int	nheld;

void		(*gx_threads_fds_hook) (int open_fds);

/* Opens dir's token files (one per core, made when missing); false if that cannot be done. */
static bool
budget_open(const char *dir)
{
	int			cores = gx_threads_cores(),
				i;

	if (tokens >= 0 && strcmp(dir, budget_path) == 0)
		return tokens > 0;
	for (i = 0; i < tokens; i++)
		close(token_fd[i]);
	tokens = 0;
	snprintf(budget_path, sizeof(budget_path), "%s", dir);
	if (mkdir(dir, 0700) == 0 || errno == EEXIST)
		for (i = 0; i < cores; i++)
		{
			char		name[4200];

			snprintf(name, sizeof(name), "%s/token.%d", dir, i);
			token_fd[i] = open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
			if (token_fd[i] < 0)
				break;
			tokens++;
		}
	if (gx_threads_fds_hook)
		gx_threads_fds_hook(tokens);
	return tokens > 0;
}

int
gx_threads_begin(int wanted, const char *budget_dir)
{
	int			n,
				i;

	if (omp_get_level() > 0)
		return 1;				/* a run nested in a parallel one: its thread alone, the outer run's tokens kept */
	n = gx_threads_usable(wanted);
	gx_threads_end();			/* tokens a run left behind (an error jumped past its end) */
	if (n > 1 && budget_dir != NULL && budget_open(budget_dir))
	{
		for (i = 0; i < tokens && nheld < n; i++)
			if (flock(token_fd[i], LOCK_EX | LOCK_NB) == 0)
				held[nheld++] = i;
		n = nheld > 0 ? nheld : 1;
		omp_set_num_threads(n);
	}
	return n;
}

void
gx_threads_end(void)
{
	if (omp_get_level() > 0)
		return;
	while (nheld > 0)
		flock(token_fd[held[--nheld]], LOCK_UN);
}
