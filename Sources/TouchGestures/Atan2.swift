// libm's atan2 and nothing else from Glibc: this is arithmetic, not a system call, and a pure Swift arctangent
// would round differently from libm in the last place, changing reported angles and rotations.
#if canImport(Glibc)
    import func Glibc.atan2
#endif

/// The angle of (x, y) in degrees, from libm's atan2: 0 points right, 90 down (y grows downwards).
func atan2Degrees(y: Double, x: Double) -> Double { atan2(y, x) * 180 / Double.pi }
