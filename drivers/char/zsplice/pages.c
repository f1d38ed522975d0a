// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: the zero pages and zero folios that pipe buffers reference.
 *
 * A set holds one zeroed folio per CPU: order 0 for "zeropage", order
 * folio_order for "folio".  A CPU's folio is allocated by the first splice
 * that runs on it, so a machine with many possible CPUs pays only for the
 * ones that splice, and splicers on different CPUs never bounce one
 * refcount cache line.  The contents are never written after allocation.
 *
 * Lifetime: the module holds one reference on every folio; each pipe
 * buffer holds one more and drops it through nosteal_pipe_buf_ops, which
 * lives in the core kernel.  zs_pages_exit() drops only the module's own
 * references, so a folio still referenced by a pipe after rmmod stays
 * allocated, still zero, until its last buffer is released.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <zsplice/zsplice.h>

/* After a failed folio allocation, wait this long before trying again. */
#define ZS_RETRY_INTERVAL	HZ

struct zs_page_set {
	const char *name;
	unsigned int order;
	struct folio **folios;		/* by CPU; NULL until first used */
	atomic_t nr_folios;
	unsigned long retry_after;	/* jiffies; order > 0 only */
};

static struct zs_page_set zs_sets[ZS_NR_SETS] = {
	[ZS_SET_PAGE]	= { .name = "zeropage" },
	[ZS_SET_FOLIO]	= { .name = "folio" },
};

static atomic_long_t zs_folio_fallbacks;

static int __init zs_set_init(struct zs_page_set *set, unsigned int order)
{
	set->order = order;
	set->retry_after = jiffies;
	set->folios = kcalloc(nr_cpu_ids, sizeof(*set->folios), GFP_KERNEL);
	return set->folios ? 0 : -ENOMEM;
}

static void zs_set_exit(struct zs_page_set *set)
{
	unsigned int cpu;

	if (!set->folios)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (set->folios[cpu])
			folio_put(set->folios[cpu]);
	}
	kfree(set->folios);
	set->folios = NULL;
}

int __init zs_pages_init(unsigned int folio_order)
{
	int ret;

	ret = zs_set_init(&zs_sets[ZS_SET_PAGE], 0);
	if (!ret)
		ret = zs_set_init(&zs_sets[ZS_SET_FOLIO], folio_order);
	if (ret)
		zs_pages_exit();
	return ret;
}

void zs_pages_exit(void)
{
	zs_set_exit(&zs_sets[ZS_SET_PAGE]);
	zs_set_exit(&zs_sets[ZS_SET_FOLIO]);
}

/*
 * Allocate and publish @set's folio for @cpu.  Two tasks may race here
 * (preemption, CPU migration): the loser frees its folio and uses the
 * winner's.  A large folio is tried without retries or warnings, and not
 * again for ZS_RETRY_INTERVAL after a failure.
 */
static struct folio *zs_set_alloc(struct zs_page_set *set, unsigned int cpu)
{
	gfp_t gfp = GFP_KERNEL | __GFP_ZERO;
	struct folio *folio, *old;

	if (set->order) {
		if (time_before(jiffies, READ_ONCE(set->retry_after)))
			return NULL;
		gfp |= __GFP_NORETRY | __GFP_NOWARN;
	}
	folio = folio_alloc(gfp, set->order);
	if (!folio) {
		if (set->order)
			WRITE_ONCE(set->retry_after, jiffies + ZS_RETRY_INTERVAL);
		return NULL;
	}
	old = cmpxchg(&set->folios[cpu], NULL, folio);
	if (old) {
		folio_put(folio);
		return old;
	}
	atomic_inc(&set->nr_folios);
	return folio;
}

/*
 * The folio of @set for the calling CPU, allocated on first use; *@cpu
 * receives the CPU index, which the caller records in pipe_buffer.private.
 * Preemption may move the task afterwards: the index only spreads refcount
 * traffic, every folio of a set holds the same zeros.  When the folio of
 * ZS_SET_FOLIO cannot be had, the 4 KiB page of ZS_SET_PAGE serves, and
 * *@set tells the caller which one it got.  NULL when neither can be
 * allocated.
 */
struct folio *zs_pages_get(enum zs_set *set, unsigned int *cpu)
{
	struct zs_page_set *s = &zs_sets[*set];
	struct folio *folio;

	*cpu = raw_smp_processor_id();
	folio = READ_ONCE(s->folios[*cpu]);
	if (likely(folio))
		return folio;
	folio = zs_set_alloc(s, *cpu);
	if (folio || *set == ZS_SET_PAGE)
		return folio;
	atomic_long_inc(&zs_folio_fallbacks);
	*set = ZS_SET_PAGE;
	return zs_pages_get(set, cpu);
}

size_t zs_pages_size(enum zs_set set)
{
	return PAGE_SIZE << zs_sets[set].order;
}

/*
 * Bytes that may still be appended to @buf: non-zero only when @buf is one
 * of ours, i.e. it uses nosteal_pipe_buf_ops, carries no flags (never
 * mergeable, never a packet) and its page is the folio of one of our sets
 * at the CPU index it records.  Folios of an earlier module instance are
 * never ours: they are still allocated, so no folio of ours can alias them.
 */
size_t zs_pages_buf_room(const struct pipe_buffer *buf)
{
	unsigned long cpu = buf->private;
	size_t end = buf->offset + buf->len;
	int set;

	if (buf->ops != &nosteal_pipe_buf_ops || buf->flags ||
	    cpu >= nr_cpu_ids)
		return 0;
	for (set = 0; set < ZS_NR_SETS; set++) {
		struct folio *folio = READ_ONCE(zs_sets[set].folios[cpu]);

		if (!folio || folio_page(folio, 0) != buf->page)
			continue;
		if (end >= zs_pages_size(set))
			return 0;
		return zs_pages_size(set) - end;
	}
	return 0;
}

/* Folios @set has allocated so far. */
unsigned int zs_pages_count(enum zs_set set)
{
	return atomic_read(&zs_sets[set].nr_folios);
}

/* Splices of the folio set that fell back to a 4 KiB page. */
unsigned long zs_pages_fallbacks(void)
{
	return atomic_long_read(&zs_folio_fallbacks);
}

/* References held on @set's folios by anything but the module itself. */
unsigned long zs_pages_pipe_refs(enum zs_set set)
{
	struct zs_page_set *s = &zs_sets[set];
	unsigned long refs = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct folio *folio = READ_ONCE(s->folios[cpu]);

		if (folio)
			refs += folio_ref_count(folio) - 1;
	}
	return refs;
}

/*
 * Check that every allocated zero page and folio still holds only zeros:
 * print "ok <folios checked>", or one "corrupt <set> cpu <n> offset <o>"
 * line per folio that does not.  Returns the number of corrupt folios.
 */
int zs_pages_selfcheck(struct seq_file *m)
{
	unsigned int checked = 0, bad = 0, cpu;
	int set;

	for (set = 0; set < ZS_NR_SETS; set++) {
		struct zs_page_set *s = &zs_sets[set];

		for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
			struct folio *folio = READ_ONCE(s->folios[cpu]);
			const char *data, *nonzero;

			if (!folio)
				continue;
			checked++;
			data = folio_address(folio);
			nonzero = memchr_inv(data, 0, zs_pages_size(set));
			if (!nonzero)
				continue;
			bad++;
			seq_printf(m, "corrupt %s cpu %u offset %td\n", s->name,
				   cpu, nonzero - data);
		}
	}
	if (!bad)
		seq_printf(m, "ok %u\n", checked);
	return bad;
}
