/* gx_overlay_sql.h: what the booleans' SQL functions share: their bound on cuts and their errors. */
#ifndef GX_OVERLAY_SQL_H
#define GX_OVERLAY_SQL_H

#include "postgres.h"

#include "base/gx_error.h"
#include "operation/gx_overlay.h"

/* The most segments and crossings one triangle may be cut by: what work_mem holds. */
size_t		gx_overlay_max_cuts(void);

/* The overlay's bounds: work_mem (gx_overlay_max_cuts), and the backend's cancel and termination flags. */
void		gx_overlay_options(GxOverlayOptions *opt, GxCancel *cancel);

/*
 * Raises err of function fname: a cancel as PostgreSQL's own, a triangle cut past work_mem as 54000 with a
 * hint, the others as gx_pg_raise_in gives them (22023 for an input it cannot take).
 */
void		gx_overlay_raise(const char *fname, const GxError *err) pg_attribute_noreturn();

#endif
