/* gx_project.h: gx_makesolid of a statement's rows made a round at a time (gx_project.c). */
#ifndef GX_PROJECT_H
#define GX_PROJECT_H

/* Registers the node and installs the executor hook (at load). */
void		gx_project_init(void);

#endif
