// SPDX-License-Identifier: GPL-2.0
/*
 * soak_switch: switch the splice implementation under load.
 *
 * Worker threads, spread over all CPUs, splice, read, readv, sendfile,
 * tee, vmsplice and splice_write on /dev/zsplice and /dev/fullsplice with
 * lengths from 1 byte to 1 MiB and pipes of 4 KiB to 1 MiB, checking that
 * every byte that comes out is zero and that every pipe gives back exactly
 * what went in.  Meanwhile one thread cycles the module parameter
 * splice_impl through sysfs and sets/clears/gets the per-file
 * implementation of the workers' open files with ioctls, as fast as it
 * can.  Prints TAP.
 *
 * Usage: soak_switch [-t SECONDS] [-w WORKERS] [-n MIN_OPS]
 *   -t  run time (default 20)
 *   -w  worker threads (default 2 per CPU)
 *   -n  operations the run must reach to pass (default 1000)
 * Needs root (sysfs) and the module loaded.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "soak.h"

#define BUFSZ		(1024 * 1024)
#define MAX_WORKERS	64

struct worker {
	pthread_t thr;
	int id, cpu;
	int dev[2];		/* /dev/zsplice, /dev/fullsplice */
	int pa[2], pb[2];	/* nonblocking pipes */
	int sk[2];		/* AF_UNIX stream pair, nonblocking */
	uint64_t rng;
	char *buf;
	/* results */
	unsigned long long ops, pipe_reads, bytes_checked;
	unsigned long long einval, eagain, bad, nonzero, mismatch;
	char first_bad[160];
};

static struct worker workers[MAX_WORKERS];
static int nworkers;
static atomic_bool stop;
static unsigned long long switches, ioctls, switch_errors;
static char switch_err_msg[160];

static void note_bad(struct worker *w, const char *what, int err)
{
	w->bad++;
	if (!w->first_bad[0])
		snprintf(w->first_bad, sizeof(w->first_bad), "worker %d: %s: %s",
			 w->id, what, strerror(err));
}

static size_t rand_len(struct worker *w)
{
	uint64_t r = sk_rand(&w->rng);

	switch (r & 3) {
	case 0:
		return 1 + (r >> 8) % 16;
	case 1:
		return 1 + (r >> 8) % 4096;
	case 2:
		return 1 + (r >> 8) % 65536;
	default:
		return 1 + (r >> 8) % BUFSZ;
	}
}

/* Read everything a nonblocking fd holds; check zeros; return bytes. */
static unsigned long long drain(struct worker *w, int fd, const char *what)
{
	unsigned long long total = 0;
	ssize_t n;

	for (;;) {
		n = read(fd, w->buf, BUFSZ);
		if (n < 0) {
			if (errno != EAGAIN)
				note_bad(w, what, errno);
			break;
		}
		if (n == 0)
			break;
		w->pipe_reads++;
		if (!sk_is_zero(w->buf, n)) {
			w->nonzero++;
			if (!w->first_bad[0])
				snprintf(w->first_bad, sizeof(w->first_bad),
					 "worker %d: non-zero data from %s", w->id, what);
		}
		w->bytes_checked += n;
		total += n;
	}
	return total;
}

static void expect(struct worker *w, unsigned long long got,
		   unsigned long long want, const char *what)
{
	if (got == want)
		return;
	w->mismatch++;
	if (!w->first_bad[0])
		snprintf(w->first_bad, sizeof(w->first_bad),
			 "worker %d: %s gave back %llu bytes, %llu went in",
			 w->id, what, got, want);
}

/* Errors a splice from/to the device may legitimately give. */
static void splice_err(struct worker *w, const char *what)
{
	if (errno == EINVAL)
		w->einval++;	/* implementation "none" */
	else if (errno == EAGAIN)
		w->eagain++;
	else
		note_bad(w, what, errno);
}

static ssize_t dev_to_pipe(struct worker *w, int dev, int *p, size_t len)
{
	ssize_t n = splice(dev, NULL, p[1], NULL, len, SPLICE_F_NONBLOCK);

	w->ops++;
	if (n < 0)
		splice_err(w, "splice dev->pipe");
	return n;
}

static void op_splice(struct worker *w, int dev)
{
	ssize_t n = dev_to_pipe(w, dev, w->pa, rand_len(w));

	if (n > 0)
		expect(w, drain(w, w->pa[0], "splice"), n, "splice pipe");
}

/* Many small splices in a row: tail coalescing. */
static void op_small(struct worker *w, int dev)
{
	unsigned long long in = 0;
	int i, k = 1 + sk_rand(&w->rng) % 64;

	for (i = 0; i < k; i++) {
		ssize_t n = dev_to_pipe(w, dev, w->pa, 1 + sk_rand(&w->rng) % 300);

		if (n <= 0)
			break;
		in += n;
	}
	expect(w, drain(w, w->pa[0], "small splices"), in, "small splices");
}

static void op_read(struct worker *w, int dev)
{
	size_t len = rand_len(w);
	ssize_t n;

	if (sk_rand(&w->rng) & 1) {
		n = read(dev, w->buf, len);
	} else {
		struct iovec iov[2] = {
			{ w->buf, len / 2 },
			{ w->buf + len / 2, len - len / 2 },
		};

		n = readv(dev, iov, 2);
	}
	w->ops++;
	if (n < 0) {
		note_bad(w, "read dev", errno);
		return;
	}
	if ((size_t)n != len)
		expect(w, n, len, "read");
	if (!sk_is_zero(w->buf, n))
		w->nonzero++;
	w->bytes_checked += n;
}

static void op_sendfile(struct worker *w, int dev)
{
	size_t len = 1 + sk_rand(&w->rng) % 100000;
	ssize_t n = sendfile(w->sk[0], dev, NULL, len);

	w->ops++;
	if (n < 0) {
		splice_err(w, "sendfile");
		/* nothing may have been queued */
	}
	expect(w, drain(w, w->sk[1], "sendfile socket"), n > 0 ? n : 0, "sendfile");
}

static void op_tee(struct worker *w, int dev)
{
	ssize_t n = dev_to_pipe(w, dev, w->pa, rand_len(w)), t;

	if (n <= 0)
		return;
	t = tee(w->pa[0], w->pb[1], n, SPLICE_F_NONBLOCK);
	w->ops++;
	if (t < 0) {
		note_bad(w, "tee", errno);
		t = 0;
	}
	expect(w, drain(w, w->pb[0], "tee copy"), t, "tee copy");
	expect(w, drain(w, w->pa[0], "tee source"), n, "tee source");
}

static void op_pipe_to_pipe(struct worker *w, int dev)
{
	ssize_t n = dev_to_pipe(w, dev, w->pa, rand_len(w)), m;

	if (n <= 0)
		return;
	m = splice(w->pa[0], NULL, w->pb[1], NULL, 1 + sk_rand(&w->rng) % n,
		   SPLICE_F_NONBLOCK);
	w->ops++;
	if (m < 0) {
		note_bad(w, "splice pipe->pipe", errno);
		m = 0;
	}
	expect(w, drain(w, w->pb[0], "pipe->pipe"), m, "pipe->pipe");
	expect(w, drain(w, w->pa[0], "pipe->pipe rest"), n - m, "pipe->pipe rest");
}

static void op_vmsplice(struct worker *w, int dev)
{
	ssize_t n = dev_to_pipe(w, dev, w->pa, rand_len(w)), m;
	struct iovec iov = { w->buf, BUFSZ };

	if (n <= 0)
		return;
	m = vmsplice(w->pa[0], &iov, 1, SPLICE_F_NONBLOCK);
	w->ops++;
	if (m < 0) {
		note_bad(w, "vmsplice", errno);
		m = 0;
	}
	if (!sk_is_zero(w->buf, m))
		w->nonzero++;
	w->bytes_checked += m;
	expect(w, m + drain(w, w->pa[0], "vmsplice rest"), n, "vmsplice");
}

/* splice into /dev/zsplice (discard); /dev/fullsplice gives ENOSPC. */
static void op_splice_write(struct worker *w, int dev)
{
	ssize_t n = dev_to_pipe(w, dev, w->pa, rand_len(w)), m;

	if (n <= 0)
		return;
	m = splice(w->pa[0], NULL, w->dev[0], NULL, n, SPLICE_F_NONBLOCK);
	w->ops++;
	if (m < 0) {
		splice_err(w, "splice pipe->dev");
		m = 0;
	}
	expect(w, m + drain(w, w->pa[0], "splice_write rest"), n, "splice_write");
	m = splice(w->pa[0], NULL, w->dev[1], NULL, 1, SPLICE_F_NONBLOCK);
	(void)m;	/* empty pipe: 0 or EAGAIN, nothing to check */
}

static void (*const ops[])(struct worker *, int) = {
	op_splice, op_small, op_read, op_sendfile, op_tee, op_pipe_to_pipe,
	op_vmsplice, op_splice_write,
};
#define NR_OPS (sizeof(ops) / sizeof(ops[0]))

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		uint64_t r = sk_rand(&w->rng);

		ops[r % NR_OPS](w, w->dev[(r >> 16) & 1]);
		/* now and then another pipe size */
		if (((r >> 20) & 255) == 0) {
			int sz = 4096 << ((r >> 28) % 9);

			fcntl(w->pa[1], F_SETPIPE_SZ, sz);
			fcntl(w->pb[1], F_SETPIPE_SZ, 4096 << ((r >> 32) % 9));
		}
	}
	return NULL;
}

static void *switcher_main(void *arg)
{
	uint64_t rng = 0x9e3779b97f4a7c15ULL;
	unsigned int next = 0;
	int ret;

	(void)arg;
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		struct worker *w;
		__u32 v;
		int fd;

		ret = zs_set_param_impl(next);
		if (ret) {
			switch_errors++;
			snprintf(switch_err_msg, sizeof(switch_err_msg),
				 "sysfs splice_impl=%s: %s", zs_impl_names[next], strerror(-ret));
		}
		ret = zs_get_param_impl();
		if (ret < 0) {
			switch_errors++;
			snprintf(switch_err_msg, sizeof(switch_err_msg),
				 "sysfs splice_impl reads back garbage");
		}
		switches++;
		next = (next + 1) % ZSPLICE_IMPL_COUNT;

		w = &workers[sk_rand(&rng) % nworkers];
		fd = w->dev[sk_rand(&rng) & 1];
		v = sk_rand(&rng) % (ZSPLICE_IMPL_COUNT + 1);
		if (v == ZSPLICE_IMPL_COUNT)
			ret = ioctl(fd, ZSPLICE_CLEAR_IMPL);
		else
			ret = ioctl(fd, ZSPLICE_SET_IMPL, &v);
		if (ret) {
			switch_errors++;
			snprintf(switch_err_msg, sizeof(switch_err_msg),
				 "ioctl set/clear impl %u: %s", v, strerror(errno));
		}
		if (ioctl(fd, ZSPLICE_GET_IMPL, &v) || v >= ZSPLICE_IMPL_COUNT) {
			switch_errors++;
			snprintf(switch_err_msg, sizeof(switch_err_msg),
				 "ioctl get impl: %u %s", v, strerror(errno));
		}
		ioctls += 2;
	}
	return NULL;
}

static long long impl_calls(int impl)
{
	char key[64];
	long long a, b;

	snprintf(key, sizeof(key), "splice_%s_calls", zs_impl_names[impl]);
	a = zs_stat(false, key);
	b = zs_stat(true, key);
	return a < 0 || b < 0 ? -1 : a + b;
}

/* A last check with each implementation: splice 1 MiB, read, zeros. */
static bool final_check(char *buf, char *msg, size_t msz)
{
	int impl, full;

	for (impl = ZSPLICE_IMPL_COPY; impl < ZSPLICE_IMPL_COUNT; impl++) {
		for (full = 0; full < 2; full++) {
			int fd = zs_open_path_impl(full ? SK_FULL_DEV : SK_ZERO_DEV,
						   O_RDONLY, impl);
			int p[2];
			ssize_t n, got = 0, r;

			if (fd < 0 || pipe(p)) {
				snprintf(msg, msz, "open with %s: %s", zs_impl_names[impl],
					 strerror(errno));
				return false;
			}
			fcntl(p[1], F_SETPIPE_SZ, BUFSZ);
			n = splice(fd, NULL, p[1], NULL, BUFSZ, SPLICE_F_NONBLOCK);
			close(p[1]);
			while (n > 0 && (r = read(p[0], buf, BUFSZ)) > 0) {
				if (!sk_is_zero(buf, r)) {
					snprintf(msg, msz, "%s: non-zero", zs_impl_names[impl]);
					return false;
				}
				got += r;
			}
			close(p[0]);
			close(fd);
			if (n <= 0 || got != n) {
				snprintf(msg, msz, "%s %s: splice %zd, read %zd",
					 full ? "fullsplice" : "zsplice", zs_impl_names[impl], n, got);
				return false;
			}
		}
	}
	return true;
}

int main(int argc, char **argv)
{
	double secs = 20, t0, el;
	unsigned long long min_ops = 1000, tot_ops = 0, tot_reads = 0, tot_bytes = 0;
	unsigned long long tot_bad = 0, tot_nonzero = 0, tot_mismatch = 0;
	unsigned long long tot_einval = 0, tot_eagain = 0;
	long long calls0[ZSPLICE_IMPL_COUNT], calls1[ZSPLICE_IMPL_COUNT], refs;
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), opt, i, orig_impl;
	pthread_t sw;
	char msg[160] = "", *buf;
	bool impls_ok = true;
	const char *first_bad = NULL;

	nworkers = 2 * (ncpu > 0 ? ncpu : 1);
	while ((opt = getopt(argc, argv, "t:w:n:")) != -1) {
		switch (opt) {
		case 't':
			secs = atof(optarg);
			break;
		case 'w':
			nworkers = atoi(optarg);
			break;
		case 'n':
			min_ops = strtoull(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-t SECONDS] [-w WORKERS] [-n MIN_OPS]\n", argv[0]);
			return 2;
		}
	}
	if (nworkers < 1 || nworkers > MAX_WORKERS)
		nworkers = 4;
	signal(SIGPIPE, SIG_IGN);
	sk_plan(7);
	if (!zs_module_loaded()) {
		sk_diag("zsplice module not loaded");
		for (i = 0; i < 7; i++)
			sk_result(false, "module loaded");
		return 1;
	}
	orig_impl = zs_get_param_impl();
	for (i = 0; i < ZSPLICE_IMPL_COUNT; i++)
		calls0[i] = impl_calls(i);
	sk_diag("%d workers on %d CPUs for %.0f s, switcher cycling splice_impl and per-file ioctls",
		nworkers, ncpu, secs);

	for (i = 0; i < nworkers; i++) {
		struct worker *w = &workers[i];

		w->id = i;
		w->cpu = i % (ncpu > 0 ? ncpu : 1);
		w->rng = 0x1234567ULL * (i + 1) ^ (uint64_t)time(NULL);
		w->buf = malloc(BUFSZ);
		w->dev[0] = open(SK_ZERO_DEV, O_RDWR | O_CLOEXEC);
		w->dev[1] = open(SK_FULL_DEV, O_RDWR | O_CLOEXEC);
		if (!w->buf || w->dev[0] < 0 || w->dev[1] < 0 ||
		    pipe2(w->pa, O_NONBLOCK | O_CLOEXEC) || pipe2(w->pb, O_NONBLOCK | O_CLOEXEC) ||
		    socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, w->sk)) {
			perror("setup");
			return 1;
		}
	}
	t0 = zs_now();
	for (i = 0; i < nworkers; i++)
		pthread_create(&workers[i].thr, NULL, worker_main, &workers[i]);
	pthread_create(&sw, NULL, switcher_main, NULL);
	while (zs_now() - t0 < secs)
		zs_msleep(200);
	atomic_store(&stop, true);
	for (i = 0; i < nworkers; i++)
		pthread_join(workers[i].thr, NULL);
	pthread_join(sw, NULL);
	el = zs_now() - t0;

	for (i = 0; i < nworkers; i++) {
		struct worker *w = &workers[i];

		tot_ops += w->ops;
		tot_reads += w->pipe_reads;
		tot_bytes += w->bytes_checked;
		tot_bad += w->bad;
		tot_nonzero += w->nonzero;
		tot_mismatch += w->mismatch;
		tot_einval += w->einval;
		tot_eagain += w->eagain;
		if (w->first_bad[0] && !first_bad)
			first_bad = w->first_bad;
		close(w->dev[0]);
		close(w->dev[1]);
		close(w->pa[0]);
		close(w->pa[1]);
		close(w->pb[0]);
		close(w->pb[1]);
		close(w->sk[0]);
		close(w->sk[1]);
	}
	for (i = 0; i < ZSPLICE_IMPL_COUNT; i++) {
		calls1[i] = impl_calls(i);
		sk_diag("splice_%s_calls +%lld", zs_impl_names[i], calls1[i] - calls0[i]);
		if (calls0[i] < 0 || calls1[i] <= calls0[i])
			impls_ok = false;
	}
	sk_diag("SOAK-SWITCH ops=%llu switches=%llu ioctls=%llu pipe_reads=%llu bytes_checked=%llu einval=%llu eagain=%llu seconds=%.1f ops_per_s=%.0f",
		tot_ops, switches, ioctls, tot_reads, tot_bytes, tot_einval, tot_eagain,
		el, tot_ops / el);
	if (first_bad)
		sk_diag("%s", first_bad);

	sk_result(tot_bad == 0, "no unexpected errors from splice/read/sendfile/tee/vmsplice (%llu)", tot_bad);
	sk_result(tot_nonzero == 0 && tot_bytes > 0,
		  "every byte read was zero (%llu bytes checked, %llu non-zero chunks)",
		  tot_bytes, tot_nonzero);
	sk_result(tot_mismatch == 0, "every pipe/socket gave back exactly what went in (%llu mismatches)",
		  tot_mismatch);
	sk_result(tot_ops >= min_ops, "%llu operations (at least %llu)", tot_ops, min_ops);
	if (switch_errors)
		sk_diag("%s", switch_err_msg);
	sk_result(switches > 0 && switch_errors == 0 && impls_ok,
		  "%llu sysfs switches and %llu ioctls without error, every implementation used",
		  switches, ioctls);
	/* sockets and pipes are closed: references must drop to 0 */
	refs = sk_pipe_refs_settled();
	sk_result(refs == 0, "zeropage_pipe_refs + folio_pipe_refs back to 0 (%lld)", refs);
	if (orig_impl >= 0)
		zs_set_param_impl(orig_impl);
	buf = malloc(BUFSZ);
	sk_result(buf && final_check(buf, msg, sizeof(msg)),
		  "devices still splice zeros with every implementation %s", msg);
	return sk_exit();
}
