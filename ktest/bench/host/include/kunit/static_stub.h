/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_KUNIT_STATIC_STUB_H
#define _PCC_KUNIT_STATIC_STUB_H

/* No CONFIG_KUNIT (linux/kconfig.h): as include/kunit/static_stub.h then */
#define KUNIT_STATIC_STUB_REDIRECT(real_fn_name, args...) do { } while (0)

#endif
