/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_BITOPS_H
#define _PCC_LINUX_BITOPS_H

#include <linux/types.h>

#define BITS_PER_LONG		(8 * __SIZEOF_LONG__)
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)

/* The index of the lowest set bit; undefined for 0, as the kernel's */
static __always_inline unsigned long __ffs(unsigned long word)
{
	return __builtin_ctzl(word);
}

/* The first bit set in *addr1 | *addr2 at or after @offset, or @size */
static inline unsigned long find_next_or_bit(const unsigned long *addr1,
					     const unsigned long *addr2,
					     unsigned long size,
					     unsigned long offset)
{
	unsigned long i, word;

	if (offset >= size)
		return size;
	i = offset / BITS_PER_LONG;
	word = (addr1[i] | addr2[i]) & (~0UL << (offset % BITS_PER_LONG));
	while (!word) {
		if (++i * BITS_PER_LONG >= size)
			return size;
		word = addr1[i] | addr2[i];
	}
	offset = i * BITS_PER_LONG + __ffs(word);
	return offset < size ? offset : size;
}

static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long offset)
{
	return find_next_or_bit(addr, addr, size, offset);
}

#endif
