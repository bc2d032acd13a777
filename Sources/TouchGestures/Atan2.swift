#if canImport(Glibc)
    import Glibc
#endif

/// The angle of (x, y) in degrees, from libm's atan2: 0 points right, 90 down (y grows downwards).
func atan2Degrees(y: Double, x: Double) -> Double { atan2(y, x) * 180 / Double.pi }
