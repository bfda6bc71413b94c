/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The types lib/percpu_counter.c names; without
 * CONFIG_DEBUG_OBJECTS_PERCPU_COUNTER (kconfig.h) it calls nothing.
 */
#ifndef _PCC_LINUX_DEBUGOBJECTS_H
#define _PCC_LINUX_DEBUGOBJECTS_H

#include <linux/types.h>

enum debug_obj_state {
	ODEBUG_STATE_NONE,
	ODEBUG_STATE_INIT,
	ODEBUG_STATE_INACTIVE,
	ODEBUG_STATE_ACTIVE,
	ODEBUG_STATE_DESTROYED,
	ODEBUG_STATE_NOTAVAILABLE,
	ODEBUG_STATE_MAX,
};

struct debug_obj_descr {
	const char *name;
	void *(*debug_hint)(void *addr);
	bool (*is_static_object)(void *addr);
	bool (*fixup_init)(void *addr, enum debug_obj_state state);
	bool (*fixup_activate)(void *addr, enum debug_obj_state state);
	bool (*fixup_destroy)(void *addr, enum debug_obj_state state);
	bool (*fixup_free)(void *addr, enum debug_obj_state state);
	bool (*fixup_assert_init)(void *addr, enum debug_obj_state state);
};

#endif
