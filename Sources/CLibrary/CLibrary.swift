// The platform's C library, whichever it is, under one module name: NagiMath calls `CLibrary.cos` and so on,
// where a call by the library's own name (`Glibc.cos`) would build on one platform only, and an unqualified
// call would find NagiMath's own `cos` (a module's declarations hide the same ones it imports). Only NagiMath
// imports this; nothing else of nagi's pure core sees the C library.

#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Android)
@_exported import Android
#elseif canImport(ucrt)
@_exported import ucrt
#elseif canImport(WASILibc)
@_exported import WASILibc
#else
#error("no C library found for this platform: NagiMath needs its elementary functions")
#endif
