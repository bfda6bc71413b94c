/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_KUNIT_VISIBILITY_H
#define _PCC_KUNIT_VISIBILITY_H

/* No CONFIG_KUNIT (linux/kconfig.h): as include/kunit/visibility.h then */
#define VISIBLE_IF_KUNIT static
#define EXPORT_SYMBOL_IF_KUNIT(symbol)

#endif
