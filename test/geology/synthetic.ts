# A TSurf in depth with two TFACE blocks, properties (one of 2 components), an ATOM and control-node flags,
# after an object of a type that is skipped.
GOCAD SGrid 1
HEADER {
name: skipped grid
}
AXIS_N 2 2 2
END
GOCAD TSurf 1
HEADER {
name: top
}
GOCAD_ORIGINAL_COORDINATE_SYSTEM
NAME Default
ZPOSITIVE Depth
END_ORIGINAL_COORDINATE_SYSTEM
PROPERTIES grade normal
NO_DATA_VALUES -99 -99
ESIZES 1 2
PROPERTY_CLASS_HEADER grade {
kind: Real Number
}
TFACE
PVRTX 1 0 0 10 1.5 0 1 CNXYZ
PVRTX 2 10 0 10 -99 0 1
PVRTX 3 0 10 12 2.5 1 0
TRGL 1 2 3
BSTONE 1
BORDER 4 1 2
TFACE
ATOM 4 2
VRTX 5 10 10 0
TRGL 4 5 3
END
