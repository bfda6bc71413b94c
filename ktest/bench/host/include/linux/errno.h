/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _PCC_LINUX_ERRNO_H
#define _PCC_LINUX_ERRNO_H

#define ENOMEM		12
#define EINVAL		22
#define ENOSPC		28

#endif
