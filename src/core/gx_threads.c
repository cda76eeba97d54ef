/* gx_threads.c: the engine's thread count (see gx_threads.h). */
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "gx_threads.h"

#define MAX_THREADS 256

static int	proven = 1;			/* OpenMP already holds this many threads: no need to try again */

int
gx_threads_cores(void)
{
	long		n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int) n;
}

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
	return n;
}
