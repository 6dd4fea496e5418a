/// Joins paths inside the output folder; the only way the library builds a path it writes to.
package enum OutputPaths {
    /// `directory/component`, where `component` must be a single sanitised name.
    ///
    /// A component with a path separator, a NUL, or equal to `.`/`..` would let a book's text reach
    /// outside the output folder; that is a programming error here (names are sanitised first).
    package static func join(_ directory: String, _ component: String) -> String {
        precondition(isSafeComponent(component), "unsafe file name component: \(component.debugDescription)")
        return directory.hasSuffix("/") ? directory + component : directory + "/" + component
    }

    package static func isSafeComponent(_ component: String) -> Bool {
        !component.isEmpty && component != "." && component != ".." && !component.contains("/")
            && !component.unicodeScalars.contains("\0") && component.utf8.count <= 255
    }
}
