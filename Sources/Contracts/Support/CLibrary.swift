#if canImport(Glibc)
    import Glibc
#endif

/// C functions looked up by name at run time: GNU extensions (`syncfs`, `memfd_create`), `<malloc.h>`
/// and mimalloc's calls, which the C library's Swift module does not import. The one place the
/// package does this, for the CLI as for the library.
package enum CLibrary {
    /// The C function `name`, wherever the process has it; nil when it has none (another C library,
    /// an allocator not linked). `F` must be the function's `@convention(c)` type.
    package static func function<F>(named name: String) -> F? {
        #if canImport(Glibc)
            // nil: RTLD_DEFAULT, the symbol wherever the process has it.
            guard let symbol = dlsym(nil, name) else { return nil }
            return unsafeBitCast(symbol, to: F.self)
        #else
            return nil
        #endif
    }
}
