import Foundation

/// The `errno` value behind an error Foundation or an audio writer throws, wherever it keeps it:
/// the one reading of these errors, for the tag editor (`TagEditingError`) and the pipeline
/// (`PosixFailure.map`) alike.
package enum SystemErrorCode {
    /// The code of `error`: a `POSIXError`, an `NSError` of the POSIX domain or with one underneath,
    /// Foundation's "out of space" (`ENOSPC`), or an error whose text says the disk is full (`ENOSPC`)
    /// or the file too large (`EFBIG`); nil for any other error.
    package static func of(_ error: any Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return Int32(ns.code) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        if ns.domain == NSCocoaErrorDomain && ns.code == NSFileWriteOutOfSpaceError { return ENOSPC }
        let text = "\(error)".lowercased()
        if text.contains("no space left") { return ENOSPC }
        if text.contains("file too large") { return EFBIG }
        return nil
    }
}
