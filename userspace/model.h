/* SPDX-License-Identifier: GPL-2.0 */
/* The capacity model of stress-ng's splice stressor (model.c). */
#ifndef ZSB_MODEL_H
#define ZSB_MODEL_H

#include <stdint.h>

#define ZSB_CAP_MAX_SLOTS	1024
#define ZSB_CAP_NPIPES		3

enum zsb_cap_kind {
	ZSB_CAP_NONE,		/* splice fails: stress-ng write()s, no growth */
	ZSB_CAP_COPY,		/* a fresh page per slot, never extended */
	ZSB_CAP_COALESCE,	/* extend our tail buffer, then new slots */
};

struct zsb_cap_impl {
	const char *name;
	enum zsb_cap_kind kind;
	uint64_t slot_bytes;	/* bytes one slot can reference */
};

/* the pipe sizes stress-ng picks for pipe1 and their probabilities */
struct zsb_cap_pipe {
	unsigned int slots;
	double p;
};
extern const struct zsb_cap_pipe zsb_cap_pipes[ZSB_CAP_NPIPES];

struct zsb_cap_params {
	double instances;	/* N */
	double seconds;		/* T */
	double loop_rate;	/* r: loops/s of one instance while it runs */
	uint64_t bytes;		/* B: bytes per splice of one instance */
	uint64_t extra;		/* undrained bytes per loop: 1 up to V0.17.00, 0 after */
};

struct zsb_cap_prediction {
	uint64_t loops[ZSB_CAP_NPIPES];		/* loops before the stall (or the cap) */
	int stalls[ZSB_CAP_NPIPES];		/* stalls within T */
	double stall_seconds[ZSB_CAP_NPIPES];	/* when, -1 if not */
	double ops_per_sec;
	double stall_fraction;			/* probability an instance stalls */
	double stalled_instances;		/* expected number */
};

/*
 * Loops one instance completes before a blocking splice into pipe1 would
 * sleep, for a pipe of @slots; stops at @limit.  *stalled says which.
 */
uint64_t zsb_cap_loops(const struct zsb_cap_impl *im, unsigned int slots, uint64_t bytes,
		       uint64_t extra, uint64_t limit, int *stalled);
/* tests: step every loop, no shortcut */
extern int zsb_cap_step_only;
void zsb_cap_predict(const struct zsb_cap_impl *im, const struct zsb_cap_params *pa,
		     struct zsb_cap_prediction *out);
/* "none", "copy", "devzero", "zeropage", "folio" (with folio_order); -1 if unknown */
int zsb_cap_impl_for(const char *name, int folio_order, struct zsb_cap_impl *im);
/* stress-ng's per-instance bytes: splice-bytes / instances, at least 1 KiB */
unsigned int zsb_cap_lkp_bytes(uint64_t splice_bytes, unsigned int instances);

#endif
