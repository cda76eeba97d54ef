/*
 * cgal_overlay.h: what the CGAL oracle and benchmark share: triangle soups as CGAL surface meshes with exact
 * constructions (Exact_predicates_exact_constructions_kernel), CGAL's exact volume of a boolean as a GMP
 * rational, and gpuexact's own: rational, and rounded once. CGAL is a test oracle only: nothing of the product includes this.
 */
#ifndef CGAL_OVERLAY_H
#define CGAL_OVERLAY_H

#include <array>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <gmp.h>

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/Polygon_mesh_processing/corefinement.h>
#include <CGAL/Polygon_mesh_processing/measure.h>
#include <CGAL/Polygon_mesh_processing/self_intersections.h>
#include <CGAL/Surface_mesh.h>

#define _Thread_local thread_local
extern "C"
{
#include "operation/gx_overlay.h"
}

typedef CGAL::Exact_predicates_exact_constructions_kernel K;
typedef CGAL::Surface_mesh<K::Point_3> Mesh;
namespace PMP = CGAL::Polygon_mesh_processing;

/* The soup (9 doubles a triangle) as a mesh, vertices merged where their doubles are equal. */
static inline Mesh
mesh_of(const std::vector<double> &tri)
{
	Mesh		m;
	std::map<std::array<double, 3>, Mesh::Vertex_index> at;

	for (size_t i = 0; i < tri.size() / 9; i++)
	{
		Mesh::Vertex_index v[3];

		for (int k = 0; k < 3; k++)
		{
			std::array<double, 3> p = {tri[9 * i + 3 * k], tri[9 * i + 3 * k + 1], tri[9 * i + 3 * k + 2]};
			auto		f = at.find(p);

			v[k] = f != at.end() ? f->second : (at[p] = m.add_vertex(K::Point_3(p[0], p[1], p[2])));
		}
		m.add_face(v[0], v[1], v[2]);
	}
	return m;
}

/* q = the exact value of a CGAL number. */
template <typename FT>
static inline void
to_mpq(const FT &x, mpq_t q)
{
	std::ostringstream os;

	os << CGAL::exact(x);
	mpq_set_str(q, os.str().c_str(), 10);
	mpq_canonicalize(q);
}

/* CGAL's exact volume of a op b into q; false when CGAL could not build the result. */
static inline bool
cgal_volume(const Mesh &a, const Mesh &b, GxBooleanOp op, mpq_t q)
{
	Mesh		x = a,
				y = b,
				out;
	bool		ok = op == GX_BOOL_INTERSECTION ? PMP::corefine_and_compute_intersection(x, y, out)
		: op == GX_BOOL_UNION ? PMP::corefine_and_compute_union(x, y, out)
		: PMP::corefine_and_compute_difference(x, y, out);

	if (!ok)
		return false;
	if (out.number_of_faces() == 0)
		mpq_set_ui(q, 0, 1);
	else
		to_mpq(PMP::volume(out), q);
	return true;
}

/* The point location indexes of the triangle soups a and b into ia and ib; false with err set (none kept). */
static inline bool
gx_index_both(const std::vector<double> &a, const std::vector<double> &b, GxSolidIndex *ia, GxSolidIndex *ib,
			  GxError *err)
{
	if (!gx_solid_index_build(ia, a.data(), a.size() / 9, err))
		return false;
	if (!gx_solid_index_build(ib, b.data(), b.size() / 9, err))
	{
		gx_solid_index_free(ia);
		return false;
	}
	return true;
}

/* gpuexact's exact volumes of a ∩ b, a ∪ b, a \ b into v[3]; false with err set. */
static inline bool
gx_volumes(const std::vector<double> &a, const std::vector<double> &b, mpq_t v[3], GxError *err)
{
	GxSolidIndex ia,
				ib;
	GxOverlaySums s;
	GxOverlayOptions opt = {0, NULL, false, 0, NULL};
	bool		ok;

	if (!gx_index_both(a, b, &ia, &ib, err))
		return false;
	gx_overlay_sums_init(&s);
	ok = gx_overlay_sums(&ia, &ib, &opt, &s, err);
	if (ok)
		for (int k = 0; k < 3; k++)
			gx_overlay_volume(&s, (GxBooleanOp) k, v[k]);
	gx_overlay_sums_clear(&s);
	gx_solid_index_free(&ia);
	gx_solid_index_free(&ib);
	return ok;
}

/*
 * gpuexact's volumes of a ∩ b, a ∪ b, a \ b each rounded once (gx_overlay_volumes) into v[3], on one thread;
 * false with err set.
 */
static inline bool
gx_rounded_volumes(const std::vector<double> &a, const std::vector<double> &b, double v[3], GxError *err)
{
	GxSolidIndex ia,
				ib;
	GxOverlayVolumes ov;
	GxOverlayOptions opt = {0, NULL, false, 1, NULL};
	bool		ok;

	if (!gx_index_both(a, b, &ia, &ib, err))
		return false;
	ok = gx_overlay_volumes(&ia, &ib, &opt, GX_BOOL_ALL, &ov, err);
	if (ok)
		for (int k = 0; k < 3; k++)
			v[k] = ov.v[k];
	gx_solid_index_free(&ia);
	gx_solid_index_free(&ib);
	return ok;
}

#endif