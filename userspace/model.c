// SPDX-License-Identifier: GPL-2.0
/*
 * The capacity model: when does stress-ng's splice stressor stall, and
 * what ops/s does that leave?
 *
 * The loop of stress-splice.c (V0.17.00, and Debian's 0.15.06), reduced to
 * what changes pipe1 (every other call in the loop fails with ESPIPE or
 * EINVAL, moves zero bytes, or touches other pipes):
 *
 *   1. splice(/dev/zero -> pipe1, B)    blocking; B = splice-bytes / N,
 *                                       at least 1 KiB
 *   2. splice(pipe1 -> pipe2, B)        takes B bytes off pipe1's front
 *      splice(pipe2 -> /dev/null, B)    (pipe2 is drained every loop)
 *   3. splice(/dev/zero -> pipe1, 1, 0) the 1-byte splice, never drained
 *                                       (gone from V0.17.01 on: extra = 0)
 *
 * So pipe1 grows by one byte per loop, and what matters is how many slots
 * those bytes occupy.  The splice core (splice_file_to_pipe) first waits
 * for one free slot (wait_for_space) - a blocking splice into a full pipe
 * sleeps in pipe_wait_writable until the alarm - then clamps the length
 * to free slots x PAGE_SIZE and calls ->splice_read:
 *
 *   copy      copy_splice_read: a fresh page per slot, at most PAGE_SIZE
 *             bytes each, never merged (1 KiB and 1 byte take a slot each)
 *   zeropage  extend the tail buffer if it is one of ours, up to the end
 *             of its page (4 KiB), then new slots of up to 4 KiB each
 *   folio     the same with slots of PAGE_SIZE << folio_order bytes
 *   none      -EINVAL: stress-ng falls back to write() (which merges into
 *             the tail) and the 1-byte splice fails: pipe1 never grows
 *
 * Moving bytes from the front (step 2) takes whole buffers while they fit
 * and shortens the next one (splice_pipe_to_pipe).
 *
 * zsb_cap_loops() runs exactly that on a model pipe, buffer by buffer, and
 * returns the loops an instance completes before it stalls.  Long runs of
 * loops that only extend the tail and shorten the front buffer are taken
 * in one step, so 2 MiB folios cost a few thousand steps, not 10^8.
 *
 * stress-ng sets each pipe to (1 + (mwc8() & 3)) x 64 KiB; F_SETPIPE_SZ
 * rounds the slot count up to a power of two, so pipe1 has 16, 32, 64 or
 * 64 slots: 16 and 32 with probability 1/4, 64 with 1/2.
 *
 * An instance that runs at r loops/s completes min(L(S), r * T) loops in
 * T seconds; stress-ng reports bogo ops/s as total ops over the mean wall
 * time of the instances (about T: a stalled instance sleeps until the
 * alarm), so for N instances
 *
 *   ops/s = N * sum_S p(S) * min(L(S), r * T) / T
 *
 * With LKP's figures (N = 64, T = 60 s, r = 12,433,266 / 64 loops/s before
 * v6.7, B = 1 KiB) copy gives L = 7177 / 15377 / 31777 and 22,962 ops/s;
 * LKP measured 22,893 for v6.7's /dev/zero.
 */
#include <stdint.h>
#include <string.h>

#include "model.h"
#include "zsbench.h"

#define CAP_PAGE	4096u

struct cap_buf {
	uint64_t size;		/* bytes the page or folio behind it holds */
	uint64_t off, len;
	int ours;		/* a zsplice zero page/folio: may be extended */
};

struct cap_pipe {
	struct cap_buf b[ZSB_CAP_MAX_SLOTS];
	unsigned int slots, head, tail;	/* head - tail buffers in use */
};

static struct cap_buf *cap_at(struct cap_pipe *p, unsigned int i)
{
	return &p->b[i % p->slots];
}

static unsigned int cap_used(const struct cap_pipe *p)
{
	return p->head - p->tail;
}

static void cap_push(struct cap_pipe *p, uint64_t size, uint64_t len, int ours)
{
	struct cap_buf *b = cap_at(p, p->head++);

	b->size = size;
	b->off = 0;
	b->len = len;
	b->ours = ours;
}

/* one blocking splice from the device into the pipe; 0 if it would sleep */
static int cap_splice_in(struct cap_pipe *p, const struct zsb_cap_impl *im, uint64_t len)
{
	uint64_t room;

	if (cap_used(p) == p->slots)
		return 0;
	room = (uint64_t)(p->slots - cap_used(p)) * CAP_PAGE;
	if (len > room)
		len = room;
	if (im->kind == ZSB_CAP_COPY) {
		while (len) {
			uint64_t n = len < CAP_PAGE ? len : CAP_PAGE;

			cap_push(p, CAP_PAGE, n, 0);
			len -= n;
		}
		return 1;
	}
	if (cap_used(p)) {
		struct cap_buf *t = cap_at(p, p->head - 1);

		if (t->ours && t->off + t->len < t->size) {
			uint64_t n = t->size - t->off - t->len;

			if (n > len)
				n = len;
			t->len += n;
			len -= n;
		}
	}
	while (len && cap_used(p) < p->slots) {
		uint64_t n = len < im->slot_bytes ? len : im->slot_bytes;

		cap_push(p, im->slot_bytes, n, 1);
		len -= n;
	}
	return 1;
}

/* splice_pipe_to_pipe: whole buffers while they fit, then shorten one */
static void cap_take(struct cap_pipe *p, uint64_t len)
{
	while (len && cap_used(p)) {
		struct cap_buf *f = cap_at(p, p->tail);

		if (f->len <= len) {
			len -= f->len;
			p->tail++;
		} else {
			f->off += len;
			f->len -= len;
			len = 0;
		}
	}
}

/*
 * Loops that change no slot: the tail has room for all their bytes and
 * the front buffer (if it is another one) outlasts them.  Returns how many
 * such loops can be taken at once, 0 if the next one must be stepped.
 */
static uint64_t cap_quiet_loops(struct cap_pipe *p, uint64_t bytes, uint64_t extra)
{
	struct cap_buf *t, *f;
	uint64_t m, room;

	/* a full pipe sleeps before ->splice_read, room in the tail or not */
	if (!cap_used(p) || cap_used(p) == p->slots)
		return 0;
	t = cap_at(p, p->head - 1);
	f = cap_at(p, p->tail);
	if (!t->ours)
		return 0;
	room = t->size - t->off - t->len;
	m = room / (bytes + extra);
	if (t != f) {
		uint64_t fm = (f->len - 1) / bytes;

		if (fm < m)
			m = fm;
	}
	return m;
}

int zsb_cap_step_only;

uint64_t zsb_cap_loops(const struct zsb_cap_impl *im, unsigned int slots, uint64_t bytes,
		       uint64_t extra, uint64_t limit, int *stalled)
{
	static struct cap_pipe p;
	uint64_t k = 0;

	*stalled = 0;
	if (im->kind == ZSB_CAP_NONE || !extra || !bytes || !slots ||
	    slots > ZSB_CAP_MAX_SLOTS)
		return limit;
	memset(&p, 0, sizeof(p));
	p.slots = slots;
	while (k < limit) {
		uint64_t m = im->kind == ZSB_CAP_COPY || zsb_cap_step_only ? 0 : cap_quiet_loops(&p, bytes, extra);

		if (m) {
			struct cap_buf *t = cap_at(&p, p.head - 1);
			struct cap_buf *f = cap_at(&p, p.tail);

			if (m > limit - k)
				m = limit - k;
			t->len += m * (bytes + extra);
			f->off += m * bytes;
			f->len -= m * bytes;
			k += m;
			continue;
		}
		if (!cap_splice_in(&p, im, bytes)) {
			*stalled = 1;
			return k;
		}
		cap_take(&p, bytes);
		if (!cap_splice_in(&p, im, extra)) {
			*stalled = 1;
			return k;
		}
		k++;
	}
	return k;
}

const struct zsb_cap_pipe zsb_cap_pipes[ZSB_CAP_NPIPES] = {
	{ 16, 0.25 }, { 32, 0.25 }, { 64, 0.5 },
};

void zsb_cap_predict(const struct zsb_cap_impl *im, const struct zsb_cap_params *pa,
		     struct zsb_cap_prediction *out)
{
	double cap_loops = pa->loop_rate * pa->seconds, ops = 0, stall = 0;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < ZSB_CAP_NPIPES; i++) {
		const struct zsb_cap_pipe *pp = &zsb_cap_pipes[i];
		uint64_t limit = cap_loops >= 1e18 ? UINT64_MAX : (uint64_t)cap_loops + 1;
		int st;
		uint64_t l = zsb_cap_loops(im, pp->slots, pa->bytes, pa->extra, limit, &st);

		out->loops[i] = l;
		out->stalls[i] = st && (double)l < cap_loops;
		out->stall_seconds[i] = out->stalls[i] && pa->loop_rate > 0 ?
					(double)l / pa->loop_rate : -1;
		ops += pp->p * (out->stalls[i] ? (double)l : cap_loops);
		stall += out->stalls[i] ? pp->p : 0;
	}
	out->ops_per_sec = pa->seconds > 0 ? pa->instances * ops / pa->seconds : 0;
	out->stall_fraction = stall;
	out->stalled_instances = stall * pa->instances;
}

int zsb_cap_impl_for(const char *name, int folio_order, struct zsb_cap_impl *im)
{
	memset(im, 0, sizeof(*im));
	im->name = name;
	if (!strcmp(name, "none")) {
		im->kind = ZSB_CAP_NONE;
	} else if (!strcmp(name, "copy") || !strcmp(name, "devzero")) {
		im->kind = ZSB_CAP_COPY;
		im->slot_bytes = CAP_PAGE;
	} else if (!strcmp(name, "zeropage")) {
		im->kind = ZSB_CAP_COALESCE;
		im->slot_bytes = CAP_PAGE;
	} else if (!strcmp(name, "folio")) {
		if (folio_order < 0 || folio_order > 20)
			return -1;
		im->kind = ZSB_CAP_COALESCE;
		im->slot_bytes = (uint64_t)CAP_PAGE << folio_order;
	} else {
		return -1;
	}
	return 0;
}

unsigned int zsb_cap_lkp_bytes(uint64_t splice_bytes, unsigned int instances)
{
	uint64_t b = instances ? splice_bytes / instances : splice_bytes;

	return b < 1024 ? 1024 : (unsigned int)b;
}

/* ---- the model alone: zsbench model ---- */

void zsb_model_print(FILE *f, const struct zsb_opts *o)
{
	static const char *const names[] = { "none", "copy", "zeropage", "folio" };
	struct zsb_cap_params pa = {
		.instances = o->model_instances,
		.seconds = o->lkp_time,
		.loop_rate = o->model_rate,
		.bytes = o->lkp_bytes < 1024 ? 1024 : o->lkp_bytes,
		.extra = o->model_extra,
	};
	int orders[2] = { 4, o->folio_order ? o->folio_order : ZSB_FOLIO_ORDER_DEFAULT };

	fprintf(f, "capacity model: %.0f instances, %.0f s, %.0f loops/s each, %llu bytes "
		"per splice, %llu undrained byte(s) per loop\n", pa.instances, pa.seconds,
		pa.loop_rate, (unsigned long long)pa.bytes, (unsigned long long)pa.extra);
	fprintf(f, "pipe1 slots 16 / 32 / 64 with probability 1/4 / 1/4 / 1/2 (stress-ng)\n\n");
	fprintf(f, "%-16s %12s %12s %12s %14s %8s\n", "impl", "loops@16", "loops@32",
		"loops@64", "ops/s", "P(stall)");
	for (int i = 0; i < 5; i++) {
		struct zsb_cap_impl im;
		struct zsb_cap_prediction pr;
		const char *name = names[i < 4 ? i : 3];
		char label[32], l[3][16];

		if (i >= 3 && orders[i - 3] == orders[0] && i == 4)
			continue;
		zsb_cap_impl_for(name, i >= 3 ? orders[i - 3] : 0, &im);
		zsb_cap_predict(&im, &pa, &pr);
		if (i >= 3)
			snprintf(label, sizeof(label), "folio order %d", orders[i - 3]);
		else
			snprintf(label, sizeof(label), "%s", name);
		for (int s = 0; s < 3; s++) {
			if (pr.stalls[s])
				snprintf(l[s], sizeof(l[s]), "%llu", (unsigned long long)pr.loops[s]);
			else
				snprintf(l[s], sizeof(l[s]), "no stall");
		}
		fprintf(f, "%-16s %12s %12s %12s %14.0f %8.2f\n", label, l[0], l[1], l[2],
			pr.ops_per_sec, pr.stall_fraction);
	}
	fprintf(f, "\ndevzero (mainline /dev/zero since v6.7) behaves as copy.  LKP measured "
		"12,433,266 ops/s before v6.7\nand 22,893 with v6.7's /dev/zero "
		"(64 instances, 60 s).\n");
}
