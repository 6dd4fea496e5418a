import Foundation
import Testing

/// `--list`: the index a user reads before converting, as text and as JSON.
@Suite("epub2audio --list")
struct ListTests {
    static let lighthouse = BinaryRunner.sample("the-lighthouse-keepers-daughter.epub")
    static let treatise = BinaryRunner.sample("a-treatise-on-small-machines.epub")

    /// The rows of the section table: lines after the header row (`#  read  kind ...`).
    static func tableRows(_ output: String) -> (header: Substring, rows: [Substring])? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let headerIndex = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#  ") })
        else { return nil }
        let rows = lines[(headerIndex + 1)...].filter { line in
            // A section row starts with its right-aligned number; reason lines (--verbose) do not.
            guard let first = line.split(separator: " ").first else { return false }
            return Int(first) != nil
        }
        return (lines[headerIndex], Array(rows))
    }

    static func listJSON(_ book: String, _ extra: [String] = []) async throws -> [String: Any] {
        let result = try await BinaryRunner.run([book, "--list", "--json"] + extra, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(jsonObject(result.stdout), "not JSON: \(result.stdout.prefix(300))")
    }

    @Test("text: title and author from the metadata, clean, on the first lines", arguments: [lighthouse, treatise])
    func textHeader(_ book: String) async throws {
        let json = try await Self.listJSON(book)
        let title = try #require(json["title"] as? String)
        let authors = try #require(json["authors"] as? [String])
        let result = try await BinaryRunner.run([book, "--list"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map(String.init) == title)
        #expect(lines.count > 1 && lines[1] == authors.joined(separator: ", "))
        // Clean: no markup, no surrounding whitespace, no escapes.
        for line in lines.prefix(2) {
            #expect(!line.contains("<") && !line.contains("&") && line == line.trimmingCharacters(in: .whitespaces))
        }
        #expect(!result.stdout.contains("\u{1B}"))
    }

    @Test("text: titles start in one column and numbers are right-aligned", arguments: [lighthouse, treatise])
    func textAlignment(_ book: String) async throws {
        let result = try await BinaryRunner.run([book, "--list"])
        #expect(result.status == 0)
        let (header, rows) = try #require(Self.tableRows(result.stdout), "no table in \(result.stdout)")
        let json = try await Self.listJSON(book)
        let sections = try #require(json["sections"] as? [[String: Any]])
        #expect(rows.count == sections.count)
        let titleColumn = try #require(header.range(of: "title")).lowerBound.utf16Offset(in: header)
        let numberEnd = try #require(header.firstIndex(of: "#")).utf16Offset(in: header)
        for (row, section) in zip(rows, sections) {
            let title = try #require(section["title"] as? String)
            let number = try #require(section["number"] as? Int)
            let text = String(row)
            // The title (indented by level for sub-sections) starts at the header's title column.
            let cells = Array(text)
            let headerCharacters = Array(header)
            let titleStart = headerCharacters[..<titleColumn].count
            #expect(cells.count > titleStart, "row too short: \(text)")
            guard cells.count > titleStart else { continue }
            let titleCell = String(cells[titleStart...])
            #expect(titleCell.trimmingCharacters(in: .whitespaces) == title, "row: \(text)")
            #expect(cells[titleStart - 1] == " " && cells[titleStart - 2] == " ", "title column misaligned: \(text)")
            // The number ends under the header's `#`.
            let digits = String(number)
            let numberCell = String(cells[...numberEnd])
            #expect(
                numberCell.hasSuffix(digits) && numberCell.trimmingCharacters(in: .whitespaces) == digits,
                "number not right-aligned: \(text)")
        }
    }

    @Test("--json of several books: one JSON array, a listing per book in order, each naming its file")
    func jsonOfSeveralBooks() async throws {
        let scratch = try Scratch("list-several")
        let broken = scratch.file("broken.epub")
        try Data("not a zip".utf8).write(to: broken)
        let result = try await BinaryRunner.run(
            [Self.lighthouse, broken.path, Self.treatise, "--list", "--json"], timeout: 60)
        #expect(result.status == 2, "a book failed: \(result.stderr)")
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        let listings = try #require(parsed as? [[String: Any]], "not a JSON array: \(result.stdout.prefix(200))")
        #expect(listings.map { $0["file"] as? String } == [Self.lighthouse, Self.treatise])
        #expect(listings.allSatisfy { ($0["sections"] as? [Any])?.isEmpty == false })
        #expect(result.errorLines.count == 1 && result.errorLines[0].contains("broken.epub"), "\(result.stderr)")
    }

    @Test("--json: the documented keys with their types")
    func jsonContract() async throws {
        let json = try await Self.listJSON(Self.lighthouse)
        #expect(json["file"] as? String == Self.lighthouse)
        #expect(json["title"] is String)
        #expect(json["authors"] is [String])
        #expect(json["language"] is String)
        let sections = try #require(json["sections"] as? [[String: Any]])
        #expect(sections.count == 20)
        for (index, section) in sections.enumerated() {
            #expect(section["number"] as? Int == index + 1)
            #expect(section["title"] is String)
            #expect(section["href"] is String)
            #expect(section["spine"] is [String])
            #expect((section["spine"] as? [String])?.isEmpty == false)
            #expect(
                ["front", "body", "back"].contains(section["role"] as? String ?? "?"),
                "role \(section["role"] ?? "nil")")
            #expect(section["kind"] is String)
            #expect(section["included"] is Bool)
            let confidence = try #require(section["confidence"] as? Double)
            #expect(confidence >= 0 && confidence <= 1)
            #expect(section["reasons"] is [String])
            #expect((section["words"] as? Int).map { $0 >= 0 } ?? false)
        }
        // Booleans are JSON true/false, not 0/1 (Foundation would read 1 as a Bool too).
        let raw = try await BinaryRunner.run([Self.lighthouse, "--list", "--json"]).stdout
        let booleans = raw.matches(of: /"included"\s*:\s*(true|false)/).count
        #expect(booleans == sections.count)
        // The default selection reads the body and skips the front and back matter.
        let included = sections.filter { $0["included"] as? Bool == true }.compactMap { $0["number"] as? Int }
        #expect(included == Array(8...15))
    }

    @Test("--chapters 3-5 marks exactly 3, 4 and 5 as read (text and JSON)")
    func chapterSelection() async throws {
        let json = try await Self.listJSON(Self.lighthouse, ["--chapters", "3-5"])
        let sections = try #require(json["sections"] as? [[String: Any]])
        let included = sections.filter { $0["included"] as? Bool == true }.compactMap { $0["number"] as? Int }
        #expect(included == [3, 4, 5])

        let text = try await BinaryRunner.run([Self.lighthouse, "--list", "--chapters", "3-5"])
        let (_, rows) = try #require(Self.tableRows(text.stdout))
        let yes = rows.filter { $0.split(separator: " ").dropFirst().first == "yes" }
            .compactMap { Int($0.split(separator: " ")[0]) }
        #expect(yes == [3, 4, 5])
    }

    @Test("--include preface reads the preface too")
    func includePreface() async throws {
        let json = try await Self.listJSON(Self.lighthouse, ["--include", "preface"])
        let sections = try #require(json["sections"] as? [[String: Any]])
        let preface = try #require(sections.first { $0["kind"] as? String == "preface" })
        #expect(preface["included"] as? Bool == true)
        let included = sections.filter { $0["included"] as? Bool == true }.compactMap { $0["number"] as? Int }
        #expect(included == [7] + Array(8...15))
    }

    @Test("--verbose shows each section's reasons under it")
    func verboseReasons() async throws {
        let json = try await Self.listJSON(Self.lighthouse)
        let sections = try #require(json["sections"] as? [[String: Any]])
        let plain = try await BinaryRunner.run([Self.lighthouse, "--list"])
        let verbose = try await BinaryRunner.run([Self.lighthouse, "--list", "--verbose"])
        #expect(verbose.status == 0)
        let lines = verbose.stdout.split(separator: "\n")
        for section in sections {
            let reasons = try #require(section["reasons"] as? [String])
            let title = try #require(section["title"] as? String)
            guard let row = lines.firstIndex(where: { $0.hasSuffix(title) }) else {
                Issue.record("no row for \(title)")
                continue
            }
            // The lines after the row, up to the next row, are its reasons.
            let following = lines[(row + 1)...].prefix { Int($0.split(separator: " ").first ?? "") == nil }
            for reason in reasons {
                #expect(following.contains { $0.contains(reason) }, "\(title): missing reason \(reason)")
            }
        }
        #expect(!plain.stdout.contains(try #require(sections.first?["reasons"] as? [String]).first ?? "?"))
    }

    @Test(
        "bad --chapters values are usage errors naming the bad part",
        arguments: [
            ("5-3", "5-3"), ("0", "0"), ("abc", "abc"), ("1--2", "1--2"), ("999", "999"), ("2,x", "x"),
        ])
    func badChapters(_ value: String, _ named: String) async throws {
        let result = try await BinaryRunner.run([Self.lighthouse, "--list", "--chapters", value])
        #expect(result.status == 64, "exit \(result.status): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        let errors = result.errorLines
        #expect(errors.count == 1, "one error line expected: \(result.stderr)")
        #expect(errors.first?.contains(named) == true, "the message should name \"\(named)\": \(result.stderr)")
        #expect(errors.first?.contains("--chapters") == true)
    }

    @Test("--chapters with a range reaching past the last section is refused")
    func chapterRangePastTheEnd() async throws {
        // The book has 20 sections: 999 alone is refused; a range ending in 999 asks for the same missing sections.
        let result = try await BinaryRunner.run([Self.lighthouse, "--list", "--chapters", "18-999"])
        #expect(result.status == 64, "exit \(result.status)")
        #expect(result.stderr.contains("999"), "\(result.stderr)")
    }

    @Test("no escape codes: NO_COLOR, and no terminal even without NO_COLOR")
    func noColour() async throws {
        for removing: Set<String> in [[], ["NO_COLOR"]] {
            for arguments in [["--list"], ["--list", "--verbose"], ["--list", "--chapters", "0"]] {
                let result = try await BinaryRunner.run(
                    [Self.lighthouse] + arguments, environment: ["TERM": "xterm-256color"], removing: removing)
                #expect(!result.stdout.contains("\u{1B}"), "\(arguments) \(removing)")
                #expect(!result.stderr.contains("\u{1B}"), "\(arguments) \(removing)")
            }
        }
    }

    /// What the binary wrote on a pseudo-terminal (`script`), run with `arguments` (shell words);
    /// nil where util-linux's script is missing.
    static func onTerminal(_ arguments: String, noColor: Bool, in scratch: Scratch) throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            print("note: /usr/bin/script is missing: terminal test skipped")
            return nil
        }
        let log = scratch.file("typescript-\(noColor)").path
        let command =
            "\(noColor ? "NO_COLOR=1" : "unset NO_COLOR;") TERM=xterm-256color '\(BinaryRunner.binary)' " + arguments
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-q", "-e", "-c", command, log]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return String(decoding: bytes(log) ?? Data(), as: UTF8.self)
    }

    /// `onTerminal` with colour and with NO_COLOR, in a scratch folder of its own.
    static func withAndWithoutColour(_ arguments: String) throws -> (coloured: String, plain: String)? {
        let scratch = try Scratch("tty")
        guard let coloured = try onTerminal(arguments, noColor: false, in: scratch),
            let plain = try onTerminal(arguments, noColor: true, in: scratch)
        else { return nil }
        return (coloured, plain)
    }

    @Test("on a terminal: colour unless NO_COLOR is set")
    func terminalColour() async throws {
        guard let (coloured, plain) = try Self.withAndWithoutColour("'\(Self.lighthouse)' --list --chapters 999")
        else { return }
        #expect(coloured.contains("rror"), "no output captured: \(coloured)")
        #expect(coloured.contains("\u{1B}["), "a terminal without NO_COLOR should get colour")
        #expect(plain.contains("rror"))
        #expect(!plain.contains("\u{1B}["), "NO_COLOR on a terminal: \(plain.debugDescription)")
    }

    @Test("--list --verbose on a terminal: colour changes no column; the reasons stand under the titles")
    func verboseColumnsOnATerminal() async throws {
        guard let (coloured, plain) = try Self.withAndWithoutColour("'\(Self.lighthouse)' --list --verbose")
        else { return }
        // script's own first and last lines name the command; the rest is the binary's.
        func output(_ log: String) -> [String] {
            log.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init)
                .filter { !$0.hasPrefix("Script ") }
        }
        let withoutEscapes = coloured.replacingOccurrences(
            of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(coloured.contains("\u{1B}[") && output(withoutEscapes) == output(plain))
        let lines = output(plain)
        let header = try #require(lines.first { $0.hasPrefix("   #  read") })
        let titleColumn = try #require(header.range(of: "title")).lowerBound.utf16Offset(in: header)
        let reason = try #require(
            lines.first { $0.hasPrefix(" ") && $0.trimmingCharacters(in: .whitespaces).hasPrefix("· ") })
        #expect(reason.prefix { $0 == " " }.count == titleColumn, "\(header)\n\(reason)")
    }
}
