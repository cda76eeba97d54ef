/* gx_cuda_loader.c: loading the CUDA engine's shared object and checking its interface version. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "batch/gx_cuda_loader.h"

static GxCudaApi api;
static char loaded_path[1024];
static const GxCudaApi *loaded;

const GxCudaApi *
gx_cuda_load(const char *path, char *why, size_t whylen)
{
	void	   *h;
	int			(*abi) (void);

	if (path == NULL || path[0] == '\0')
	{
		snprintf(why, whylen, "no CUDA engine library configured");
		return NULL;
	}
	if (loaded && strcmp(path, loaded_path) == 0)
		return loaded;
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL)
	{
		snprintf(why, whylen, "CUDA engine not loadable: %s", dlerror());
		return NULL;
	}
	*(void **) &abi = dlsym(h, "gx_cuda_abi");
	*(void **) &api.device_info = dlsym(h, "gx_cuda_device_info");
	*(void **) &api.intersect = dlsym(h, "gx_cuda_intersect");
	*(void **) &api.free_result = dlsym(h, "gx_cuda_free_result");
	*(void **) &api.side_upload = dlsym(h, "gx_cuda_side_upload");
	*(void **) &api.side_free = dlsym(h, "gx_cuda_side_free");
	*(void **) &api.prepare = dlsym(h, "gx_cuda_prepare");
	*(void **) &api.locate = dlsym(h, "gx_cuda_locate");
	*(void **) &api.volumes = dlsym(h, "gx_cuda_volumes");
	*(void **) &api.overlap_candidates = dlsym(h, "gx_cuda_overlap_candidates");
	*(void **) &api.solid_volumes = dlsym(h, "gx_cuda_solid_volumes");
	if (!abi || !api.device_info || !api.intersect || !api.free_result || !api.side_upload || !api.side_free ||
		!api.prepare || !api.locate || !api.volumes || !api.overlap_candidates || !api.solid_volumes ||
		abi() != GX_CUDA_ABI)
	{
		snprintf(why, whylen, "CUDA engine %s has the wrong interface (expected version %d)", path, GX_CUDA_ABI);
		dlclose(h);
		return NULL;
	}
	snprintf(loaded_path, sizeof(loaded_path), "%s", path);
	loaded = &api;
	return loaded;
}
