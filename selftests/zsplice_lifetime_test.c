// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: module lifetime.  rmmod while pipes still hold zeropage and
 * folio buffers (then read them: zeros, no splat); the orphaned folios are
 * freed once the last buffer goes (free memory, folio_order=9); nothing
 * allocated at load, one zero page and one folio after traffic on one CPU
 * (debugfs counts and free memory; run with many possible CPUs, e.g.
 * -smp 2,maxcpus=64); 20 load/unload cycles; load-time parameters
 * (folio_order 1..9 valid, others EINVAL; splice_impl names); 2 threads
 * splicing while a third switches splice_impl, bounded by work done.
 *
 * Needs root and the module loaded; the reload tests need ZSPLICE_KO (path
 * of zsplice.ko).  Every test leaves the module loaded with default
 * parameters.
 */
#include <pthread.h>

#include "zsplice_util.h"
#include "kselftest_harness.h"

FIXTURE(life) {
	int kmsg;
};

FIXTURE_SETUP(life)
{
	if (zs_host_mode())
		SKIP(return, ZS_NEEDS_MODULE("loading and unloading"));
	if (geteuid())
		SKIP(return, "needs root");
	if (!zs_ko_path())
		SKIP(return, "ZSPLICE_KO (path of zsplice.ko) not set");
	if (!zs_module_loaded())
		ASSERT_EQ(0, zs_mod_load(""));
	self->kmsg = zs_kmsg_open();
}

FIXTURE_TEARDOWN(life)
{
	char rec[8192];

	if (zs_host_mode() || geteuid() || !zs_ko_path())
		return;
	EXPECT_EQ(0, zs_mod_restore_default());
	EXPECT_FALSE(zs_kmsg_splat(self->kmsg, rec, sizeof(rec))) TH_LOG("kernel: %s", rec);
}

static int fill_pipe(int impl, bool full, int p[2], long len)
{
	int fd = zs_open_impl(full, O_RDONLY, impl);
	long done = 0;

	if (fd < 0)
		return -1;
	if (zs_pipe(p, 1 << 20, O_NONBLOCK)) {
		close(fd);
		return -1;
	}
	/* a 1-byte splice, then coalesced ones, then big ones */
	while (done < len) {
		long want = done < 100 ? 1 : len - done;
		ssize_t r = splice(fd, NULL, p[1], NULL, want, 0);

		if (r <= 0)
			break;
		done += r;
	}
	close(fd);
	return done == len ? 0 : -1;
}

TEST_F_TIMEOUT(life, rmmod_with_live_buffers, 60)
{
	static const struct { int impl; bool full; } src[] = {
		{ ZSPLICE_IMPL_ZEROPAGE, false }, { ZSPLICE_IMPL_FOLIO, false },
		{ ZSPLICE_IMPL_ZEROPAGE, true }, { ZSPLICE_IMPL_FOLIO, true },
		{ ZSPLICE_IMPL_COPY, false },
	};
	enum { NP = sizeof(src) / sizeof(src[0]) };
	long len = 400000;
	int p[NP][2], t[2], mv[2], i, err;

	for (i = 0; i < NP; i++)
		ASSERT_EQ(0, fill_pipe(src[i].impl, src[i].full, p[i], len))
			TH_LOG("%s", zs_impl_names[src[i].impl]);
	/* a tee'd copy and a partially moved buffer too */
	ASSERT_EQ(0, zs_pipe(t, 1 << 20, O_NONBLOCK));
	ASSERT_EQ(len, tee(p[1][0], t[1], len, 0));
	ASSERT_EQ(0, zs_pipe(mv, 1 << 20, O_NONBLOCK));
	ASSERT_EQ(777, splice(p[0][0], NULL, mv[1], NULL, 777, 0));
	EXPECT_LT(0, zs_stat(false, "zeropage_pipe_refs"));
	EXPECT_LT(0, zs_stat(false, "folio_pipe_refs"));

	err = zs_mod_unload(5000);
	ASSERT_EQ(0, err) TH_LOG("rmmod with live pipe buffers: %s", strerror(-err));
	ASSERT_FALSE(zs_module_loaded());

	/* every consumer still works on the orphaned buffers */
	EXPECT_EQ(0, zs_read_zeros(p[0][0], len - 777));
	EXPECT_EQ(0, zs_read_zeros(mv[0], 777));
	{
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		long left = len;

		ASSERT_LE(0, null);
		while (left > 0) {
			ssize_t r = splice(p[1][0], NULL, null, NULL, left, 0);

			ASSERT_LT(0, r);
			left -= r;
		}
		close(null);
	}
	EXPECT_EQ(0, zs_read_zeros(t[0], len));
	for (i = 2; i < NP; i++)
		EXPECT_EQ(0, zs_read_zeros(p[i][0], len)) TH_LOG("pipe %d", i);
	/* a write into an emptied pipe after rmmod */
	ASSERT_EQ(3, write(p[0][1], "abc", 3));
	for (i = 0; i < NP; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
	close(t[0]);
	close(t[1]);
	close(mv[0]);
	close(mv[1]);
	/* and back: the pages are fresh and counters start at 0 */
	ASSERT_EQ(0, zs_mod_load(""));
	EXPECT_EQ(0, zs_stat(false, "zeropage_pipe_refs"));
	EXPECT_EQ(0, zs_stat(false, "folio_pipe_refs"));
	{
		int q[2];

		ASSERT_EQ(0, fill_pipe(ZSPLICE_IMPL_FOLIO, false, q, len));
		EXPECT_EQ(0, zs_read_zeros(q[0], len));
		close(q[0]);
		close(q[1]);
	}
}

/* module busy while a device file is open: rmmod refuses, nothing breaks */
TEST_F(life, rmmod_refused_while_open)
{
	int fd = open(ZSPLICE_ZERO_PATH, O_RDONLY | O_CLOEXEC);
	char buf[100];

	ASSERT_LE(0, fd);
	errno = 0;
	EXPECT_EQ(-1, syscall(SYS_delete_module, ZS_MOD_NAME, O_NONBLOCK));
	EXPECT_TRUE(errno == EWOULDBLOCK || errno == EBUSY);
	EXPECT_TRUE(zs_module_loaded());
	EXPECT_EQ(100, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(-1, zs_nonzero(buf, sizeof(buf)));
	close(fd);
}

TEST_F_TIMEOUT(life, load_unload_20_cycles, 120)
{
	int i, impl;

	for (i = 0; i < 20; i++) {
		int err = zs_mod_unload(5000);

		ASSERT_EQ(0, err) TH_LOG("cycle %d unload: %s", i, strerror(-err));
		err = zs_mod_load(i & 1 ? "splice_impl=folio folio_order=2" : "");
		ASSERT_EQ(0, err) TH_LOG("cycle %d load: %s", i, strerror(-err));
		for (impl = ZSPLICE_IMPL_COPY; impl < ZSPLICE_IMPL_COUNT; impl++) {
			int p[2];

			/* buffers alive across the next unload for half the cycles */
			ASSERT_EQ(0, fill_pipe(impl, i & 2, p, 70000));
			EXPECT_EQ(0, zs_read_zeros(p[0], 70000));
			close(p[0]);
			close(p[1]);
		}
	}
	ASSERT_EQ(0, zs_mod_unload(5000));
	ASSERT_EQ(0, zs_mod_load(""));
	EXPECT_EQ(ZS_DEFAULT_IMPL, zs_get_param_impl());
}

/* Possible CPUs, from /sys/devices/system/cpu/possible ("0-63", "0,2-5"). */
static int possible_cpus(void)
{
	char buf[256], *p = buf;
	int n = 0;

	if (zs_read_file("/sys/devices/system/cpu/possible", buf, sizeof(buf)) <= 0)
		return -1;
	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += b - a + 1;
		p = *end == ',' ? end + 1 : end;
	}
	return n;
}

/*
 * Free memory (kB, per-CPU lists included: zs_free_kb) once two reads
 * 100 ms apart agree within 64 kB (10 tries).
 */
static long long free_kb(void)
{
	long long a = zs_free_kb(), b;
	int i;

	for (i = 0; i < 10; i++) {
		zs_msleep(100);
		b = zs_free_kb();
		if (llabs(b - a) < 64)
			return b;
		a = b;
	}
	return a;
}

/*
 * Nothing is allocated at load, whatever the number of possible CPUs;
 * traffic on one CPU allocates that CPU's zero page and folio only.
 */
TEST_F_TIMEOUT(life, memory_at_load_lazy, 120)
{
	long long before, loaded, after, fs, mbefore, mloaded, mafter;
	int possible = possible_cpus(), p[2], q[2], fd, zfd;

	ASSERT_LT(0, possible);
	ASSERT_EQ(0, zs_mod_unload(5000));
	before = free_kb();
	mbefore = zs_meminfo("MemAvailable");
	ASSERT_EQ(0, zs_mod_load(""));
	loaded = free_kb();
	mloaded = zs_meminfo("MemAvailable");
	TH_LOG("%d possible CPUs: free memory %lld kB before load, %lld after (-%lld); MemAvailable %lld, %lld",
	       possible, before, loaded, before - loaded, mbefore, mloaded);
	/*
	 * Less than one 2 MiB folio at load: allocating per possible CPU would
	 * take possible x (folio + page).
	 */
	EXPECT_GT(2048, before - loaded);
	ASSERT_TRUE(zs_debugfs());
	fs = zs_stat(false, "folio_size");
	EXPECT_EQ(0, zs_stat(false, "zeropage_pages"));
	EXPECT_EQ(0, zs_stat(false, "folio_folios"));
	EXPECT_EQ(0, zs_stat(false, "zeropage_bytes"));
	EXPECT_EQ(0, zs_stat(false, "folio_bytes"));
	/* traffic on one CPU */
	ASSERT_EQ(0, zs_pin_cpu(0));
	fd = zs_open_impl(false, O_RDONLY, ZSPLICE_IMPL_FOLIO);
	zfd = zs_open_impl(true, O_RDONLY, ZSPLICE_IMPL_ZEROPAGE);
	ASSERT_LE(0, fd);
	ASSERT_LE(0, zfd);
	ASSERT_EQ(0, zs_pipe(p, 1 << 20, O_NONBLOCK));
	ASSERT_EQ(0, zs_pipe(q, 1 << 20, O_NONBLOCK));
	ASSERT_EQ(1 << 20, zs_splice_all(fd, p[1], 1 << 20, 0));
	ASSERT_EQ(1 << 20, zs_splice_all(zfd, q[1], 1 << 20, 0));
	after = free_kb();
	mafter = zs_meminfo("MemAvailable");
	TH_LOG("%d possible CPUs, %ld online; free memory (per-CPU lists included) %lld kB before load, %lld after (-%lld), %lld after traffic on CPU 0 (-%lld)",
	       possible, sysconf(_SC_NPROCESSORS_ONLN), before, loaded, before - loaded, after,
	       loaded - after);
	TH_LOG("MemAvailable %lld kB before load, %lld after (-%lld), %lld after traffic (-%lld)",
	       mbefore, mloaded, mbefore - mloaded, mafter, mloaded - mafter);
	TH_LOG("debugfs after traffic: zeropage_pages %lld (%lld bytes), folio_folios %lld (%lld bytes), folio_fallbacks %lld",
	       zs_stat(false, "zeropage_pages"), zs_stat(false, "zeropage_bytes"),
	       zs_stat(false, "folio_folios"), zs_stat(false, "folio_bytes"),
	       zs_stat(false, "folio_fallbacks"));
	EXPECT_EQ(1, zs_stat(false, "zeropage_pages"));
	EXPECT_EQ(ZS_PAGE, zs_stat(false, "zeropage_bytes"));
	EXPECT_EQ(1, zs_stat(false, "folio_folios") + zs_stat(false, "folio_fallbacks"));
	EXPECT_EQ(zs_stat(false, "folio_folios") * fs, zs_stat(false, "folio_bytes"));
	EXPECT_EQ(0, zs_read_zeros(p[0], 1 << 20));
	EXPECT_EQ(0, zs_read_zeros(q[0], 1 << 20));
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	close(fd);
	close(zfd);
}

/*
 * After rmmod, the folios that pipes still reference stay allocated (and
 * zero) until the last buffer goes; then they are freed: free memory
 * comes back.  Freed pages may wait in per-CPU lists, which MemAvailable
 * does not count: count them (zs_free_kb), and poll with a bound.
 */
TEST_F_TIMEOUT(life, orphans_freed_after_rmmod, 240)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN), cpu;
	int p[64][2], np = 0, i, err;
	long long held, orphaned, now = 0, want;
	double t0;

	ASSERT_LT(0, ncpu);
	if (ncpu > 32)
		ncpu = 32;
	ASSERT_EQ(0, zs_mod_unload(5000));
	ASSERT_EQ(0, zs_mod_load("folio_order=9"));
	for (cpu = 0; cpu < ncpu; cpu++) {
		if (zs_pin_cpu(cpu))
			continue;
		ASSERT_EQ(0, fill_pipe(ZSPLICE_IMPL_FOLIO, cpu & 1, p[np], 3 << 20));
		np++;
		ASSERT_EQ(0, fill_pipe(ZSPLICE_IMPL_ZEROPAGE, false, p[np], 100000));
		np++;
	}
	zs_pin_cpu(0);
	held = zs_stat(false, "folio_bytes") + zs_stat(false, "zeropage_bytes");
	TH_LOG("%ld CPUs used: folio_folios %lld, folio_bytes %lld, zeropage_bytes %lld, fallbacks %lld",
	       ncpu, zs_stat(false, "folio_folios"), zs_stat(false, "folio_bytes"),
	       zs_stat(false, "zeropage_bytes"), zs_stat(false, "folio_fallbacks"));
	ASSERT_LE((long long)(2 << 20), held) TH_LOG("no folio allocated: nothing to measure");
	err = zs_mod_unload(5000);
	ASSERT_EQ(0, err) TH_LOG("rmmod with live buffers: %s", strerror(-err));
	orphaned = free_kb();
	/* the orphaned buffers still read as zeros */
	EXPECT_EQ(0, zs_read_zeros(p[0][0], 12345));
	for (i = 0; i < np; i++) {
		close(p[i][0]);
		close(p[i][1]);
	}
	/* 3/4 of what the module held must come back */
	want = held / 1024 * 3 / 4;
	t0 = zs_now();
	for (i = 0; i < 300; i++) {
		now = zs_free_kb();
		if (now - orphaned >= want)
			break;
		zs_msleep(100);
	}
	TH_LOG("free memory (per-CPU lists included) after rmmod with pipes %lld kB, after closing them %lld kB (+%lld, want +%lld of %lld held) after %.1f s; MemAvailable %lld",
	       orphaned, now, now - orphaned, want, held / 1024, zs_now() - t0,
	       zs_meminfo("MemAvailable"));
	EXPECT_LE(want, now - orphaned) TH_LOG("orphaned zero folios not freed");
}

TEST_F_TIMEOUT(life, folio_order_valid_range, 90)
{
	static const int orders[] = { 1, 2, 9 };
	unsigned int i;

	for (i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		char params[64], buf[32];
		int p[2], err;
		long fs = 4096L << orders[i];

		ASSERT_EQ(0, zs_mod_unload(5000));
		snprintf(params, sizeof(params), "folio_order=%d", orders[i]);
		err = zs_mod_load(params);
		ASSERT_EQ(0, err) TH_LOG("%s: %s", params, strerror(-err));
		ASSERT_LT(0, zs_read_file(ZS_PARAM_DIR "folio_order", buf, sizeof(buf)));
		EXPECT_EQ(orders[i], atoi(buf));
		EXPECT_EQ(fs, zs_stat(false, "folio_size"));
		EXPECT_EQ(fs, zs_stat(true, "folio_size"));
		/* a 2-slot pipe takes one folio of small splices plus one */
		{
			int fd = zs_open_impl(false, O_RDONLY, ZSPLICE_IMPL_FOLIO);
			long k = fs > 65536 ? fs / 65536 : 1, cnt = 0;

			ASSERT_LE(0, fd);
			ASSERT_EQ(0, zs_pipe(p, 8192, O_NONBLOCK));
			while (splice(fd, NULL, p[1], NULL, k, 0) == k && cnt <= fs / k + 1)
				cnt++;
			EXPECT_EQ(EAGAIN, errno);
			EXPECT_EQ(fs / k + 1, cnt) TH_LOG("order %d, %ld-byte splices", orders[i], k);
			EXPECT_EQ(0, zs_read_zeros(p[0], cnt * k));
			close(p[0]);
			close(p[1]);
			close(fd);
		}
		ASSERT_EQ(0, fill_pipe(ZSPLICE_IMPL_FOLIO, false, p, 1 << 20));
		EXPECT_EQ(0, zs_read_zeros(p[0], 1 << 20));
		close(p[0]);
		close(p[1]);
	}
}

TEST_F(life, folio_order_invalid_einval)
{
	static const char * const bad[] = {
		"folio_order=0", "folio_order=10", "folio_order=-1", "folio_order=64",
		"folio_order=abc", "folio_order=", "splice_impl=bogus", "splice_impl=",
		"splice_impl=COPY",
	};
	unsigned int i;

	ASSERT_EQ(0, zs_mod_unload(5000));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = zs_mod_load(bad[i]);

		EXPECT_EQ(-EINVAL, err) TH_LOG("insmod %s: %s", bad[i], strerror(-err));
		if (!err)
			zs_mod_unload(5000);
		EXPECT_FALSE(zs_module_loaded());
	}
}

TEST_F(life, splice_impl_at_load)
{
	int i;

	for (i = 0; i < ZSPLICE_IMPL_COUNT; i++) {
		char params[64];
		int fd;
		__u32 v = 99;

		ASSERT_EQ(0, zs_mod_unload(5000));
		snprintf(params, sizeof(params), "splice_impl=%s", zs_impl_names[i]);
		ASSERT_EQ(0, zs_mod_load(params));
		EXPECT_EQ(i, zs_get_param_impl());
		fd = open(ZSPLICE_ZERO_PATH, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, ioctl(fd, ZSPLICE_GET_IMPL, &v));
		EXPECT_EQ((__u32)i, v);
		close(fd);
	}
}

/* ------------------------------------------- switch under traffic */

struct worker {
	pthread_t th;
	volatile int *stop;
	bool full;
	long ops, moved, bytes, bad, errors, einval;
	int last_errno;
};

static void *splicer(void *arg)
{
	struct worker *w = arg;
	unsigned int seed = (unsigned long)w;
	int fd = open(zs_dev_path(w->full), O_RDONLY | O_CLOEXEC);
	int p[2];

	if (fd < 0 || zs_pipe(p, 1 << 20, O_NONBLOCK)) {
		w->errors++;
		return NULL;
	}
	while (!*w->stop) {
		long len = 1 + rand_r(&seed) % 300000;
		ssize_t n = splice(fd, NULL, p[1], NULL, len, 0);
		long r;

		w->ops++;
		if (n < 0 && errno != EAGAIN) {
			if (errno == EINVAL) {
				w->einval++;	/* "none" at that moment */
			} else {
				w->errors++;
				w->last_errno = errno;
			}
			continue;
		}
		if (n > 0)
			w->moved++;
		/* sometimes leave it for the next round to coalesce onto */
		if (n > 0 && rand_r(&seed) % 4 == 0 && zs_pipe_bytes(p[0]) < 500000)
			continue;
		n = zs_pipe_bytes(p[0]);
		r = zs_read_zeros(p[0], n);
		if (r)
			w->bad++;
		w->bytes += n;
	}
	close(p[0]);
	close(p[1]);
	close(fd);
	return NULL;
}

FIXTURE(sw) {
	int kmsg;
};

FIXTURE_SETUP(sw)
{
	ZS_REQUIRE_LOADED_MODULE("switching splice_impl");
	self->kmsg = zs_kmsg_open();
}

FIXTURE_TEARDOWN(sw)
{
	char rec[8192];

	if (!zs_module_loaded() || geteuid())
		return;
	EXPECT_EQ(0, zs_set_param_impl(ZS_DEFAULT_IMPL));
	EXPECT_FALSE(zs_kmsg_splat(self->kmsg, rec, sizeof(rec))) TH_LOG("kernel: %s", rec);
}

/* Has @w done enough work for switch_under_traffic() to stop? */
static bool worker_done(const struct worker *w)
{
	return *(const volatile long *)&w->ops >= 200 &&
	       *(const volatile long *)&w->moved >= 20;
}

/* with_none: cycle all four names; else only copy/zeropage/folio (then no EINVAL is allowed) */
static void switch_under_traffic(struct __test_metadata *_metadata, bool with_none)
{
	volatile int stop = 0;
	struct worker w[2] = { { .stop = &stop }, { .stop = &stop, .full = true } };
	long switches = 0;
	int i;

	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&w[i].th, NULL, splicer, &w[i]));
	/*
	 * Bounded by work, not time: at least 200 switches, 200 splices and
	 * 20 that moved data per worker, however slow the kernel; at most
	 * 50000 switches.  Most splices fail with EINVAL at "none", which
	 * returns at once while the others copy: counting only calls, a
	 * worker moved nothing in 3 of 60 runs.
	 */
	while (switches < 200 || !worker_done(&w[0]) || !worker_done(&w[1])) {
		int impl = with_none ? switches % ZSPLICE_IMPL_COUNT : 1 + switches % 3;
		int err = zs_set_param_impl(impl);

		if (err) {
			TH_LOG("switch: %s", strerror(-err));
			break;
		}
		if (++switches == 50000) {
			TH_LOG("a worker is not done after %ld switches", switches);
			break;
		}
	}
	stop = 1;
	for (i = 0; i < 2; i++)
		pthread_join(w[i].th, NULL);
	TH_LOG("%ld switches; splicers: %ld+%ld ops, %ld+%ld moving data, %ld+%ld bytes, %ld+%ld EINVAL",
	       switches, w[0].ops, w[1].ops, w[0].moved, w[1].moved, w[0].bytes, w[1].bytes,
	       w[0].einval, w[1].einval);
	EXPECT_LE(200, switches);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, w[i].bad) TH_LOG("worker %d read nonzero data", i);
		EXPECT_EQ(0, w[i].errors) TH_LOG("worker %d: %s", i, strerror(w[i].last_errno));
		if (!with_none)
			EXPECT_EQ(0, w[i].einval) TH_LOG("worker %d: EINVAL without \"none\"", i);
		EXPECT_LE(200, w[i].ops);
		EXPECT_LE(20, w[i].moved);
		EXPECT_LT(0, w[i].bytes);
	}
	/* references all returned */
	for (i = 0; i < 100; i++) {
		if (zs_stat(false, "zeropage_pipe_refs") == 0 &&
		    zs_stat(false, "folio_pipe_refs") == 0)
			break;
		zs_msleep(10);
	}
	EXPECT_EQ(0, zs_stat(false, "zeropage_pipe_refs"));
	EXPECT_EQ(0, zs_stat(false, "folio_pipe_refs"));
}

TEST_F_TIMEOUT(sw, switch_impl_under_traffic, 240)
{
	switch_under_traffic(_metadata, true);
}

TEST_F_TIMEOUT(sw, switch_impl_under_traffic_never_none, 240)
{
	switch_under_traffic(_metadata, false);
}

TEST_HARNESS_MAIN
