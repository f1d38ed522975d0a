// SPDX-License-Identifier: GPL-2.0
/*
 * soak_unload: unload the module under load, with pipes full of its pages.
 *
 * Each round: load zsplice.ko (random splice_impl and folio_order) →
 * splicer threads, one per implementation (copy, zeropage, folio and the
 * module default), keep their pipes full while reading bits back → rmmod
 * must fail with EBUSY/EAGAIN while they hold the devices open → the
 * splicers top their pipes up and close the devices → rmmod, retried while
 * busy, must succeed → every pipe, read after the module is gone, gives
 * back exactly what was spliced in, all zeros.  Prints TAP.
 *
 * Usage: soak_unload [-r ROUNDS] [-k]
 *   -r  rounds (default 50)
 *   -k  leave the module unloaded at the end (default: load it again with
 *       default parameters)
 * Environment: ZSPLICE_KO, the module file.  Needs root.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include "soak.h"

#define NTHREADS	4
#define NPIPES		2
#define BUFSZ		(1024 * 1024)

struct splicer {
	pthread_t thr;
	int id;
	int impl;		/* per-file implementation, -1 = module default */
	int dev;
	int p[NPIPES][2];
	unsigned long long in[NPIPES], out[NPIPES];
	unsigned long long ops, nonzero, bad;
	char err[128];
	uint64_t rng;
	char *buf;
};

static struct splicer sp[NTHREADS];
static atomic_int phase;	/* 0 run, 1 close devices and exit */
static atomic_int full_once;

static void fill(struct splicer *s, int i)
{
	for (;;) {
		size_t len = (sk_rand(&s->rng) & 1) ? 1 + sk_rand(&s->rng) % 512 :
			1 + sk_rand(&s->rng) % BUFSZ;
		ssize_t n = splice(s->dev, NULL, s->p[i][1], NULL, len, SPLICE_F_NONBLOCK);

		s->ops++;
		if (n > 0) {
			s->in[i] += n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && !(errno == EINVAL && s->impl < 0)) {
			s->bad++;
			if (!s->err[0])
				snprintf(s->err, sizeof(s->err), "splice: %s", strerror(errno));
		}
		return;
	}
}

static void *splicer_main(void *arg)
{
	struct splicer *s = arg;
	cpu_set_t set;
	int i, ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	CPU_ZERO(&set);
	CPU_SET(s->id % (ncpu > 0 ? ncpu : 1), &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0; i < NPIPES; i++)
		fill(s, i);
	atomic_fetch_add(&full_once, 1);
	while (atomic_load(&phase) == 0) {
		i = sk_rand(&s->rng) % NPIPES;
		ssize_t n = read(s->p[i][0], s->buf, 1 + sk_rand(&s->rng) % 70000);

		if (n > 0) {
			s->out[i] += n;
			if (!sk_is_zero(s->buf, n))
				s->nonzero++;
		}
		fill(s, i);
	}
	for (i = 0; i < NPIPES; i++)
		fill(s, i);
	close(s->dev);
	s->dev = -1;
	return NULL;
}

int main(int argc, char **argv)
{
	static const char *const impl_names[] = { "copy", "zeropage", "folio", "none" };
	int rounds = 50, keep_unloaded = 0, opt, r, i, j, ret;
	int load_fail = 0, busy_fail = 0, unload_fail = 0, data_fail = 0, count_fail = 0;
	unsigned long long busy_total = 0, held_total = 0, bytes_read = 0, held_min = ~0ULL;
	char first[256] = "";
	uint64_t rng = (uint64_t)time(NULL) | 1;
	char *buf = malloc(BUFSZ);
	double t0 = zs_now();

	while ((opt = getopt(argc, argv, "r:k")) != -1) {
		switch (opt) {
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'k':
			keep_unloaded = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-r ROUNDS] [-k]\n", argv[0]);
			return 2;
		}
	}
	sk_plan(6);
	if (!getenv("ZSPLICE_KO") || access(getenv("ZSPLICE_KO"), R_OK)) {
		sk_diag("ZSPLICE_KO not set or unreadable");
		for (i = 0; i < 6; i++)
			sk_result(false, "ZSPLICE_KO names the module");
		return 1;
	}
	if (zs_module_loaded() && (ret = sk_unload_retry(10000, NULL))) {
		sk_diag("cannot unload the module before starting: %s", strerror(-ret));
		for (i = 0; i < 6; i++)
			sk_result(false, "module unloadable at start");
		return 1;
	}
	for (i = 0; i < NTHREADS; i++) {
		sp[i].buf = malloc(BUFSZ);
		sp[i].rng = rng + 7919 * i;
	}

	for (r = 1; r <= rounds; r++) {
		char params[96];
		unsigned long busy = 0;
		unsigned long long held = 0;

		snprintf(params, sizeof(params), "splice_impl=%s folio_order=%d",
			 impl_names[sk_rand(&rng) % 3], 1 + (int)(sk_rand(&rng) % 9));
		ret = zs_mod_insert(params);
		if (ret || !sk_wait_devices(10000)) {
			load_fail++;
			if (!first[0])
				snprintf(first, sizeof(first), "round %d: load %s: %s", r, params,
					 ret ? strerror(-ret) : "devices did not appear");
			if (!ret)
				sk_unload_retry(10000, NULL);
			continue;
		}
		atomic_store(&phase, 0);
		atomic_store(&full_once, 0);
		for (i = 0; i < NTHREADS; i++) {
			struct splicer *s = &sp[i];

			s->id = i;
			s->impl = i < 3 ? i + 1 : -1;	/* copy, zeropage, folio, default */
			s->dev = zs_open_path_impl((r + i) & 1 ? SK_FULL_DEV : SK_ZERO_DEV, O_RDONLY,
					      s->impl);
			s->err[0] = 0;
			s->bad = s->nonzero = 0;
			if (s->dev < 0) {
				snprintf(first, sizeof(first), "round %d: open/ioctl: %s", r, strerror(errno));
				return 1;
			}
			for (j = 0; j < NPIPES; j++) {
				if (pipe2(s->p[j], O_NONBLOCK | O_CLOEXEC)) {
					perror("pipe2");
					return 1;
				}
				fcntl(s->p[j][1], F_SETPIPE_SZ, 4096 << (sk_rand(&rng) % 9));
				s->in[j] = s->out[j] = 0;
			}
			pthread_create(&s->thr, NULL, splicer_main, s);
		}
		while (atomic_load(&full_once) < NTHREADS)
			zs_msleep(2);
		/* Files open: rmmod must be refused, a few times over. */
		for (i = 0; i < 5; i++) {
			ret = zs_mod_delete();
			if (ret == -EBUSY || ret == -EAGAIN) {
				busy++;
			} else {
				busy_fail++;
				if (!first[0])
					snprintf(first, sizeof(first),
						 "round %d: rmmod with open files: %s", r,
						 ret ? strerror(-ret) : "succeeded");
				break;
			}
			zs_msleep(3);
		}
		atomic_store(&phase, 1);
		/* rmmod as the splicers close: retried while busy */
		ret = sk_unload_retry(20000, &busy);
		for (i = 0; i < NTHREADS; i++)
			pthread_join(sp[i].thr, NULL);
		if (ret == 0 && zs_module_loaded())
			ret = -EEXIST;
		if (ret) {
			unload_fail++;
			if (!first[0])
				snprintf(first, sizeof(first), "round %d: rmmod: %s", r, strerror(-ret));
			sk_unload_retry(20000, NULL);
		}
		busy_total += busy;
		/* The module is gone: read every pipe. */
		for (i = 0; i < NTHREADS; i++) {
			struct splicer *s = &sp[i];

			if (s->bad || s->nonzero) {
				data_fail++;
				if (!first[0])
					snprintf(first, sizeof(first), "round %d thread %d: %s%s", r, i,
						 s->err, s->nonzero ? " non-zero data" : "");
			}
			for (j = 0; j < NPIPES; j++) {
				unsigned long long want = s->in[j] - s->out[j], got = 0;
				ssize_t n;

				held += want;
				while ((n = read(s->p[j][0], buf, BUFSZ)) > 0) {
					if (!sk_is_zero(buf, n)) {
						data_fail++;
						if (!first[0])
							snprintf(first, sizeof(first),
								 "round %d: non-zero data after rmmod (%s)",
								 r, s->impl >= 0 ? zs_impl_names[s->impl] : "default");
					}
					got += n;
				}
				if (got != want) {
					count_fail++;
					if (!first[0])
						snprintf(first, sizeof(first),
							 "round %d: pipe gave %llu bytes after rmmod, %llu held",
							 r, got, want);
				}
				bytes_read += got;
				close(s->p[j][0]);
				close(s->p[j][1]);
			}
		}
		held_total += held;
		if (held < held_min)
			held_min = held;
		if (r % 10 == 0 || r == rounds)
			sk_diag("round %d/%d: %s, rmmod busy %lu times, %llu bytes held across rmmod",
				r, rounds, params, busy, held);
	}
	sk_diag("SOAK-UNLOAD rounds=%d busy_refusals=%llu bytes_held_across_rmmod=%llu seconds=%.1f",
		rounds, busy_total, held_total, zs_now() - t0);
	if (first[0])
		sk_diag("first failure: %s", first);
	sk_result(load_fail == 0, "%d rounds loaded the module with random splice_impl/folio_order (%d failed)",
		  rounds, load_fail);
	sk_result(busy_fail == 0, "rmmod refused with EBUSY/EAGAIN while files open (%d rounds not)",
		  busy_fail);
	sk_result(unload_fail == 0, "rmmod, retried while busy, succeeded with full pipes (%d rounds not)",
		  unload_fail);
	sk_result(data_fail == 0 && held_min > 0,
		  "pipes held data across rmmod in every round, all read back as zeros (%llu bytes)",
		  bytes_read);
	sk_result(count_fail == 0, "every pipe gave back exactly what it held (%d mismatches)", count_fail);
	if (keep_unloaded) {
		sk_result(!zs_module_loaded(), "module left unloaded");
	} else {
		ret = zs_mod_insert("");
		if (!ret && !sk_wait_devices(10000))
			ret = -ENODEV;
		sk_result(ret == 0 && sk_pipe_refs() == 0,
			  "module loads again with default parameters, no pipe references (%s)",
			  ret ? strerror(-ret) : "ok");
	}
	return sk_exit();
}
