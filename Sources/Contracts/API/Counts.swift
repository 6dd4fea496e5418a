/// Counts in messages, one way everywhere: "1 chapter", "2 chapters", "2,013 sections". Every layer
/// that writes a message a reader sees (the CLI, the conversion, the book text, the EPUB reader and
/// its markup) says a count with these, never with a fixed plural ("1 voices") or "(s)".
public enum Counts {
    /// `value` with its thousands grouped by commas (12,345), whatever the locale.
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = value < 0 ? "-" : ""
        for (offset, character) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }

    /// `count` (grouped) and `noun`, singular for one, else `plural` (the noun and an "s" unless
    /// given): "1 voice", "0 voices", "1,024 entries" (`plural: "entries"`).
    public static func of(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        grouped(count) + " " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
