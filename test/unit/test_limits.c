/*
 * test_limits.c: resource limits of the engine. Thread counts are bounded by the cores and by what the
 * system can start: under an address-space limit too tight for another thread, a batch runs on fewer
 * threads instead of OpenMP exiting the process. A grid resolution asked far beyond the data does not
 * allocate its cube. A side may mix SRIDs; the batch refuses only pairs that gx_intersects would refuse.
 * gx_wkt_fits measures text forms exactly. A budget of threads is shared between processes. Runs before
 * anything else starts OpenMP's threads.
 */
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/gx_alloc.h"
#include "base/gx_threads.h"
#include "batch/gx_batch.h"
#include "gx_test.h"
#include "io/gx_io.h"

static GxSerialized *
wkt(const char *text, size_t *size)
{
	GxError		err = {GX_OK, ""};
	GxSerialized *g = gx_from_wkt(text, size, &err);

	if (g == NULL)
		fprintf(stderr, "bad test WKT %s: %s\n", text, err.msg);
	return g;
}

static void
add(GxBatchSide *s, const char *text)
{
	GxError		err = {GX_OK, ""};
	size_t		size;
	GxSerialized *g = wkt(text, &size);

	CHECK(g && gx_batch_side_add(s, g, &err));
	gx_free(g);
}

/* Virtual memory of this process, in bytes (first field of /proc/self/statm, in pages). */
static size_t
vm_bytes(void)
{
	FILE	   *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;

	if (f)
	{
		if (fscanf(f, "%lu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	return (size_t) pages * 4096;
}

static void
threads_under_address_limit(void)
{
	GxBatchSide a,
				b;
	GxBatchOptions opt;
	GxBatchStats st;
	GxPairs		p;
	GxError		err = {GX_OK, ""};
	struct rlimit old,
				tight;
	int			n;

	gx_batch_side_init(&a);
	gx_batch_side_init(&b);
	add(&a, "LINESTRING Z (0 0 0,10 10 10)");
	add(&b, "TRIANGLE Z ((0 10 5,10 0 5,10 10 5,0 10 5))");
	gx_batch_options_default(&opt);
	opt.device = GX_DEVICE_CPU;
	CHECK(getrlimit(RLIMIT_AS, &old) == 0);
	tight = old;
	tight.rlim_cur = vm_bytes() + (2 << 20);	/* room for the batch, none for a thread's stack */
	CHECK(setrlimit(RLIMIT_AS, &tight) == 0);
	n = gx_threads_usable(0);
	CHECK_MSG(gx_threads_cores() == 1 || n < gx_threads_cores(), "%d threads started under a 2 MB margin", n);
	CHECK(gx_batch_intersect(&a, &b, &opt, &p, &st, &err) && p.n == 1);
	gx_free(p.keys);
	CHECK(setrlimit(RLIMIT_AS, &old) == 0);
	/* with room again: one thread per core, never more */
	CHECK(gx_threads_usable(0) == gx_threads_cores());
	CHECK(gx_threads_usable(100000) == gx_threads_cores());
	CHECK(gx_threads_usable(1) == 1);
	gx_batch_side_free(&a);
	gx_batch_side_free(&b);
}

static void
grid_resolution_bounded(void)
{
	GxBatchSide a,
				b;
	GxBatchOptions opt;
	GxBatchStats st;
	GxPairs		p;
	GxError		err = {GX_OK, ""};

	gx_batch_side_init(&a);
	gx_batch_side_init(&b);
	add(&a, "MULTIPOINT Z ((0 0 0),(1000 1000 1000))");
	add(&b, "MULTIPOINT Z ((1000 1000 1000),(5 5 5))");
	gx_batch_options_default(&opt);
	opt.device = GX_DEVICE_CPU;
	opt.grid_resolution = 2048;	/* 8.6e9 cells if taken as asked */
	CHECK(gx_batch_intersect(&a, &b, &opt, &p, &st, &err) && p.n == 1);
	CHECK_MSG((double) st.grid_dim[0] * st.grid_dim[1] * st.grid_dim[2] <= 4096, "grid %d x %d x %d",
			  st.grid_dim[0], st.grid_dim[1], st.grid_dim[2]);
	gx_free(p.keys);
	gx_batch_side_free(&a);
	gx_batch_side_free(&b);
}

static void
mixed_srids(void)
{
	GxBatchSide a,
				b,
				z;
	GxBatchOptions opt;
	GxBatchStats st;
	GxPairs		p;
	GxError		err = {GX_OK, ""};

	gx_batch_side_init(&a);
	gx_batch_side_init(&b);
	gx_batch_side_init(&z);
	add(&a, "SRID=4326;POINT Z (1 1 1)");
	add(&a, "SRID=32633;POINT Z (2 2 2)");
	add(&b, "SRID=4326;POINT Z (1 1 1)");
	add(&z, "POINT Z (2 2 2)");
	CHECK(a.mixed_srid && !b.mixed_srid && a.srid == 4326);
	gx_batch_options_default(&opt);
	opt.device = GX_DEVICE_CPU;
	/* SRID 0 goes with any: no pair is refused */
	CHECK(gx_batch_intersect(&a, &z, &opt, &p, &st, &err) && p.n == 1);
	gx_free(p.keys);
	/* (32633, 4326) would be refused by gx_intersects */
	CHECK(!gx_batch_intersect(&a, &b, &opt, &p, &st, &err) && err.code == GX_ERR_SRID);
	err.code = GX_OK;
	opt.ignore_srid = true;
	CHECK(gx_batch_intersect(&a, &b, &opt, &p, &st, &err) && p.n == 1);
	gx_free(p.keys);
	gx_batch_side_free(&a);
	gx_batch_side_free(&b);
	gx_batch_side_free(&z);
}

static void
text_sizes(void)
{
	const char *texts[] = {"SRID=32633;TIN Z (((523456.789012345 7012345.5 -12.25,1 2 3,4 5 6,523456.789012345 7012345.5 -12.25)))",
		"GEOMETRYCOLLECTION Z (POINT Z (1 2 3),LINESTRING Z EMPTY,MULTIPOINT Z ((1e-300 2 3)))", "POINT Z EMPTY"};
	size_t		k;

	for (k = 0; k < sizeof(texts) / sizeof(texts[0]); k++)
	{
		size_t		size,
					len;
		GxSerialized *g = wkt(texts[k], &size);
		char	   *out = gx_to_wkt(g, 0, &len);

		/* the limit is met exactly at the text's length plus the longest SRID prefix (16) */
		CHECK_MSG(gx_wkt_fits(g, size, len + 16) && !gx_wkt_fits(g, size, len + 15), "%s", texts[k]);
		gx_free(out);
		gx_free(g);
	}
}

/*
 * The cluster-wide budget: a process holding every token leaves others one thread each; tokens come back
 * when it ends its run, and when it is killed.
 */
static void
thread_budget(void)
{
	char		dir[] = "/tmp/gx_budget.XXXXXX";
	int			cores = gx_threads_cores(),
				ready[2],
				go[2],
				k;
	pid_t		child;
	char		c = 0;

	CHECK(mkdtemp(dir) != NULL && pipe(ready) == 0 && pipe(go) == 0);
	child = fork();
	if (child == 0)
	{
		int			n = gx_threads_begin(0, dir);

		c = (char) n;
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		pause();				/* holds its tokens until killed */
		_exit(0);
	}
	CHECK(read(ready[0], &c, 1) == 1 && c == cores);
	CHECK_MSG(gx_threads_begin(0, dir) == 1, "a second process got more than its own thread");
	gx_threads_end();
	CHECK(write(go[1], &c, 1) == 1);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	CHECK_MSG(gx_threads_begin(0, dir) == cores, "the killed process's tokens did not come back");
	gx_threads_end();
	for (k = 0; k < cores; k++)
	{
		char		name[64];

		snprintf(name, sizeof(name), "%s/token.%d", dir, k);
		unlink(name);
	}
	rmdir(dir);
}

int
main(void)
{
	threads_under_address_limit();
	thread_budget();
	grid_resolution_bounded();
	mixed_srids();
	text_sizes();
	return gx_test_report("test_limits");
}
