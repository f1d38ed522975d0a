// SPDX-License-Identifier: GPL-2.0
/*
 * zsplice: the zero pages and zero folios that pipe buffers reference.
 *
 * Each set holds one zeroed page (ZS_SET_PAGE) or one zeroed compound
 * folio of order folio_order (ZS_SET_FOLIO) per possible CPU, so that
 * splicers on different CPUs do not bounce one refcount cache line.  The
 * contents are never written after allocation.
 *
 * Lifetime: the module holds one reference on every page; each pipe
 * buffer holds one more and drops it through nosteal_pipe_buf_ops, which
 * lives in the core kernel.  zs_pages_exit() only drops the module's own
 * reference, so a page still referenced by a pipe after rmmod stays
 * allocated, still zero, until the last buffer is released.
 */
#include <linux/cpumask.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <zsplice/zsplice.h>

struct zs_page_set {
	unsigned int order;
	struct page **pages;	/* indexed by CPU number */
};

static struct zs_page_set zs_sets[ZS_NR_SETS];

static int zs_set_alloc(struct zs_page_set *set, unsigned int order)
{
	gfp_t gfp = GFP_KERNEL | __GFP_ZERO | (order ? __GFP_COMP : 0);
	unsigned int cpu;

	set->order = order;
	set->pages = kcalloc(nr_cpu_ids, sizeof(*set->pages), GFP_KERNEL);
	if (!set->pages)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		set->pages[cpu] = alloc_pages_node(cpu_to_node(cpu), gfp, order);
		if (!set->pages[cpu])
			return -ENOMEM;
	}
	return 0;
}

static void zs_set_free(struct zs_page_set *set)
{
	unsigned int cpu;

	if (!set->pages)
		return;
	for_each_possible_cpu(cpu) {
		if (set->pages[cpu])
			put_page(set->pages[cpu]);
	}
	kfree(set->pages);
	set->pages = NULL;
}

int zs_pages_init(unsigned int folio_order)
{
	int ret;

	ret = zs_set_alloc(&zs_sets[ZS_SET_PAGE], 0);
	if (!ret)
		ret = zs_set_alloc(&zs_sets[ZS_SET_FOLIO], folio_order);
	if (ret)
		zs_pages_exit();
	return ret;
}

void zs_pages_exit(void)
{
	zs_set_free(&zs_sets[ZS_SET_PAGE]);
	zs_set_free(&zs_sets[ZS_SET_FOLIO]);
}

/*
 * The page of @set for the calling CPU; *@cpu receives the index, which
 * the caller stores in pipe_buffer.private.  Preemption may move the task
 * afterwards: the index only spreads refcount traffic, any page of the set
 * holds the same zeros.
 */
struct page *zs_pages_get(enum zs_set set, unsigned int *cpu)
{
	*cpu = raw_smp_processor_id();
	return zs_sets[set].pages[*cpu];
}

size_t zs_pages_size(enum zs_set set)
{
	return PAGE_SIZE << zs_sets[set].order;
}

/*
 * Bytes that may still be appended to @buf: non-zero only when @buf is one
 * of ours, i.e. it uses nosteal_pipe_buf_ops, carries no flags (never
 * mergeable, never a packet) and its page is the page of one of our sets
 * at the CPU index it records.  Pages of an earlier module instance are
 * never ours: they are still allocated, so no page of ours can alias them.
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
		if (zs_sets[set].pages[cpu] != buf->page)
			continue;
		if (end >= zs_pages_size(set))
			return 0;
		return zs_pages_size(set) - end;
	}
	return 0;
}

/* Pages (or folios) each set owns: one per possible CPU. */
unsigned int zs_pages_count(void)
{
	return num_possible_cpus();
}

/* References held on @set's pages by anything but the module itself. */
unsigned long zs_pages_pipe_refs(enum zs_set set)
{
	unsigned long refs = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		refs += page_ref_count(zs_sets[set].pages[cpu]) - 1;
	return refs;
}
