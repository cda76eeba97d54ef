/* gx_settings.h: the extension's settings (GUCs) and the batch options they make. */
#ifndef GX_SETTINGS_H
#define GX_SETTINGS_H

#include "batch/gx_batch.h"

extern bool gx_enable_join;
extern int	gx_join_batch_rows;
extern int	gx_join_batch_mb;
extern int	gx_cache_host_mb;
extern bool gx_keep_tables;

void		gx_settings_init(void);

/* Batch options from the settings; cancel is wired to query cancel and statement_timeout. */
void		gx_settings_batch_options(GxBatchOptions *o);

#endif
