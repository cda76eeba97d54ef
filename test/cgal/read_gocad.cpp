// test/cgal/read_gocad.cpp: reads a GOCAD TSurf with CGAL's reader (CGAL::IO::read_GOCAD, CGAL 5.5) and prints
// what it read: "points N triangles M", then each point as x y z (%.17g: the doubles exactly), then each
// triangle as three 0-based point indices. Exit status 1 when CGAL refuses the file.
#include <CGAL/IO/GOCAD.h>
#include <CGAL/Simple_cartesian.h>

#include <cstdio>
#include <string>
#include <vector>

typedef CGAL::Simple_cartesian<double>::Point_3 Point;

int
main(int argc, char **argv)
{
	std::vector<Point> points;
	std::vector<std::vector<std::size_t>> triangles;

	if (argc != 2 || !CGAL::IO::read_GOCAD(std::string(argv[1]), points, triangles))
	{
		std::fprintf(stderr, "CGAL::IO::read_GOCAD refused %s\n", argc == 2 ? argv[1] : "(no file)");
		return 1;
	}
	std::printf("points %zu triangles %zu\n", points.size(), triangles.size());
	for (const Point &p : points)
		std::printf("%.17g %.17g %.17g\n", p.x(), p.y(), p.z());
	for (const std::vector<std::size_t> &t : triangles)
		std::printf("%zu %zu %zu\n", t[0], t[1], t[2]);
	return 0;
}
