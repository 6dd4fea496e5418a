import Foundation
import TestSupport
import Testing
import ZipReader

@testable import EPUBReader

@Suite struct EPUBBookTests {
    @Test func opensAValidBook() throws {
        let book = try EPUBBook(bytes: makeEPUB(), name: "valid.epub")
        let package = book.package
        #expect(package.packagePath == "OEBPS/content.opf")
        #expect(package.packageDirectory == "OEBPS/")
        #expect(package.metadata.title == "Test Book")
        #expect(package.spine.map(\.href) == ["one.xhtml", "two.xhtml"])
        #expect(package.tocSource == .nav)
        #expect(package.tocDocument == "nav.xhtml")
        #expect(package.toc.map(\.label) == ["One", "Two"])
        #expect(package.warnings.isEmpty)
        let document = try book.document(forHref: "two.xhtml")
        #expect(document.root.first(named: "h1")?.textContent == "Two")
        #expect(try book.data(forHref: "one.xhtml") == utf8(chapter("One")))
        #expect(throws: EPUBError.resourceNotFound(href: "nope.xhtml")) { try book.data(forHref: "nope.xhtml") }
    }

    @Test(arguments: [
        ("empty", [UInt8]()),
        ("html", utf8("<!DOCTYPE html><html><body>Not a book</body></html>")),
    ])
    func refusesNonZips(name: String, bytes: [UInt8]) {
        #expect {
            try EPUBBook(bytes: bytes, name: name)
        } throws: { error in
            guard case EPUBError.notAZip(let path, _) = error else { return false }
            return path == name
        }
    }

    @Test func refusesTruncatedZip() {
        let bytes = makeEPUB()
        #expect(throws: EPUBError.self) { try EPUBBook(bytes: Array(bytes.prefix(bytes.count * 6 / 10))) }
    }

    @Test func refusesZipWithoutContainer() {
        let docx = makeZip([.stored("[Content_Types].xml", "<Types/>"), .stored("word/document.xml", "<w/>")])
        #expect {
            try EPUBBook(bytes: docx)
        } throws: { error in
            guard case EPUBError.missingContainer(let reason) = error else { return false }
            return reason.contains("DOCX")
        }
    }

    @Test func refusesMissingPackageDocument() {
        let bytes = makeEPUB([
            ("META-INF/container.xml", containerXML.replacingOccurrences(of: "content.opf", with: "gone.opf"))
        ])
        #expect(throws: EPUBError.missingPackageDocument(path: "OEBPS/gone.opf")) { try EPUBBook(bytes: bytes) }
    }

    @Test func refusesEmptySpine() {
        let bytes = makeEPUB([("OEBPS/content.opf", packageDocument(chapters: []))])
        #expect(throws: EPUBError.emptySpine(file: "OEBPS/content.opf")) { try EPUBBook(bytes: bytes) }
    }

    @Test func refusesSpineWhoseFilesAreAllMissing() {
        let bytes = makeEPUB([("OEBPS/content.opf", packageDocument(chapters: ["ghost.xhtml"]))])
        #expect(throws: EPUBError.emptySpine(file: "OEBPS/content.opf")) { try EPUBBook(bytes: bytes) }
    }

    @Test func aChapterOnlyTheTOCListsIsReadAtItsPlaceInTheTOC() throws {
        // three.xhtml is in the manifest and the nav, not in the spine (a hand-edited book); an
        // image the nav links to is no document to read.
        let manifestExtra =
            "<item id=\"c3\" href=\"three.xhtml\" media-type=\"application/xhtml+xml\"/>"
            + "<item id=\"img\" href=\"map.png\" media-type=\"image/png\"/>"
        let bytes = makeEPUB([
            (
                "OEBPS/content.opf",
                packageDocument(chapters: ["one.xhtml", "two.xhtml"], extraManifest: manifestExtra)
            ),
            ("OEBPS/three.xhtml", chapter("Three")), ("OEBPS/map.png", "not really a picture"),
            (
                "OEBPS/nav.xhtml",
                navDocument([("one.xhtml", "One"), ("three.xhtml", "Three"), ("two.xhtml", "Two"), ("map.png", "Map")])
            ),
        ])
        let book = try EPUBBook(bytes: bytes)
        #expect(book.package.spine.map(\.href) == ["one.xhtml", "three.xhtml", "two.xhtml"])
        #expect(book.package.spine.map(\.index) == [0, 1, 2])
        #expect(
            book.package.warnings.contains {
                $0.description.contains("TOC entry \"Three\" points at a document the spine leaves out")
            })
        #expect(
            !book.package.warnings.contains {
                $0.description.contains("map.png") && $0.description.contains("spine leaves out")
            })
    }

    @Test func skipsMissingSpineFileWithWarning() throws {
        let bytes = makeEPUB([
            ("OEBPS/content.opf", packageDocument(chapters: ["one.xhtml", "ghost.xhtml", "two.xhtml"]))
        ])
        let book = try EPUBBook(bytes: bytes)
        #expect(book.package.spine.map(\.href) == ["one.xhtml", "two.xhtml"])
        #expect(book.package.spine.map(\.index) == [0, 1])
        #expect(book.package.warnings.contains { $0.severity == .major && $0.message.contains("missing") })
    }

    @Test func refusesZipBombByRatio() {
        var entries = [TestZipEntry.stored("mimetype", "application/epub+zip")]
        entries += [
            .stored("META-INF/container.xml", containerXML),
            .stored("OEBPS/content.opf", packageDocument(chapters: ["one.xhtml"], nav: nil)),
            .deflatedZeros("OEBPS/one.xhtml", count: 300_000),
        ]
        let limits = ZipLimits(
            maxEntryBytes: 1 << 30, maxCompressionRatio: 100, ratioCheckThreshold: 100_000, maxTotalBytes: 1 << 30,
            maxEntries: 100)
        #expect {
            try EPUBBook(bytes: makeZip(entries), limits: limits)
        } throws: { error in
            guard case EPUBError.limitExceeded(let file, let what) = error else { return false }
            return file == "OEBPS/one.xhtml" && what.contains("ratio")
        }
    }

    @Test func refusesZipBombByDeclaredSize() {
        var entries = [TestZipEntry.stored("mimetype", "application/epub+zip")]
        entries += [
            .stored("META-INF/container.xml", containerXML),
            .stored("OEBPS/content.opf", packageDocument(chapters: ["one.xhtml"], nav: nil)),
            TestZipEntry.stored("OEBPS/one.xhtml", chapter("One")).declaring(size: 4_294_967_280),
        ]
        #expect {
            try EPUBBook(bytes: makeZip(entries))
        } throws: { error in
            guard case EPUBError.limitExceeded(let file, _) = error else { return false }
            return file == "OEBPS/one.xhtml"
        }
    }

    @Test func traversalEntryNamesAreNeverUsedAsPaths() throws {
        let marker = "/tmp/epub-reader-zipslip-\(UInt32.random(in: 0...UInt32.max)).txt"
        var entries = [TestZipEntry.stored("mimetype", "application/epub+zip")]
        entries += [
            .stored("../../../../../..\(marker)", "evil"),
            .stored(marker, "evil"),
            .stored("OEBPS/../../escaped.xhtml", chapter("Evil")),
        ]
        let book = try EPUBBook(bytes: makeZip(entries + (try makeEPUBEntries())))
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(book.package.warnings.contains { $0.message.contains("climb out") })
        // An href that climbs out of the container is not found, whatever the ZIP holds.
        #expect(throws: EPUBError.self) { try book.data(forHref: "../../escaped.xhtml") }
        #expect(throws: EPUBError.self) { try book.data(forHref: "../../../../../../\(marker)") }
    }

    @Test func billionLaughsInPackageDocumentIsNotExpanded() throws {
        var doctype = "<!DOCTYPE package [<!ENTITY lol \"lol\">"
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            doctype += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        doctype += "]>"
        let opf = packageDocument(chapters: ["one.xhtml", "two.xhtml"], title: "&lol9;")
            .replacingOccurrences(of: "<package ", with: doctype + "\n<package ")
        let clock = ContinuousClock()
        let start = clock.now
        let book = try EPUBBook(bytes: makeEPUB([("OEBPS/content.opf", opf)]))
        #expect(clock.now - start < timeLimit(seconds: 5))
        #expect(book.package.metadata.title == nil)
    }

    @Test func externalEntityDoesNotLeakALocalFile() throws {
        let path = "/tmp/epub-reader-xxe-\(UInt32.random(in: 0...UInt32.max)).txt"
        let secret = "TOP-SECRET-\(UInt32.random(in: 0...UInt32.max))"
        try secret.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let doctype = "<!DOCTYPE package [<!ENTITY xxe SYSTEM \"file://\(path)\">]>\n"
        let opf = packageDocument(chapters: ["one.xhtml", "two.xhtml"], title: "&xxe;")
            .replacingOccurrences(of: "<package ", with: doctype + "<package ")
        let content =
            "<?xml version=\"1.0\"?>\n" + doctype.replacingOccurrences(of: "package", with: "html")
            + "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>[&xxe;]</p></body></html>"
        let book = try EPUBBook(bytes: makeEPUB([("OEBPS/content.opf", opf), ("OEBPS/one.xhtml", content)]))
        #expect(book.package.metadata.title?.contains(secret) != true)
        let document = try book.document(forHref: "one.xhtml")
        #expect(!document.root.textContent.contains(secret))
    }

    @Test func deeplyNestedContentDoesNotCrash() throws {
        let depth = 100_000
        let body =
            String(repeating: "<span>", count: depth) + "Deep. innermost text"
            + String(repeating: "</span>", count: depth)
        let book = try EPUBBook(bytes: makeEPUB([("OEBPS/one.xhtml", chapter("One", body: body))]))
        let clock = ContinuousClock()
        let start = clock.now
        let document = try book.document(forHref: "one.xhtml")
        #expect(clock.now - start < timeLimit(seconds: 20))
        #expect(document.root.textContent.contains("Deep. innermost text"))
    }

    @Test func refusesContentEncryptedWithAES() {
        let encryption = """
            <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
            <enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes256-cbc"/>
            <enc:CipherData><enc:CipherReference URI="OEBPS/one.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>
            """
        #expect {
            try EPUBBook(bytes: makeEPUB([("META-INF/encryption.xml", encryption)]))
        } throws: { error in
            guard case EPUBError.drmProtected(let scheme) = error else { return false }
            return scheme.contains("aes256-cbc")
        }
    }

    @Test func fontObfuscationAloneIsFine() throws {
        let encryption = """
            <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
            <enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.idpf.org/2008/embedding"/>
            <enc:CipherData><enc:CipherReference URI="OEBPS/font.otf"/></enc:CipherData></enc:EncryptedData></encryption>
            """
        let opf = packageDocument(
            chapters: ["one.xhtml", "two.xhtml"],
            extraManifest: "<item id=\"font\" href=\"font.otf\" media-type=\"font/otf\"/>")
        let book = try EPUBBook(
            bytes: makeEPUB([
                ("META-INF/encryption.xml", encryption), ("OEBPS/content.opf", opf), ("OEBPS/font.otf", "x"),
            ]))
        #expect(book.package.spine.count == 2)
        #expect(book.package.warnings.isEmpty)
    }

    @Test(arguments: [("META-INF/license.lcpl", "Readium LCP"), ("META-INF/rights.xml", "Adobe ADEPT")])
    func refusesKnownDRMWhenTheContentIsEncrypted(file: String, scheme: String) throws {
        let encryption = """
            <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
            <enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>
            <enc:CipherData><enc:CipherReference URI="OEBPS/one.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>
            """
        #expect(throws: EPUBError.drmProtected(scheme: scheme)) {
            try EPUBBook(bytes: makeEPUB([(file, "{}"), ("META-INF/encryption.xml", encryption)]))
        }
        // An encryption.xml that cannot be read: the licence file decides.
        #expect(throws: EPUBError.drmProtected(scheme: scheme)) {
            try EPUBBook(bytes: makeEPUB([(file, "{}"), ("META-INF/encryption.xml", "<encryption")]))
        }
        // The licence file alone encrypts nothing: the book is read, with a warning.
        let book = try EPUBBook(bytes: makeEPUB([(file, "garbage")]))
        #expect(book.package.spine.count == 2)
        #expect(book.package.warnings.contains { $0.message.contains("\(scheme) licence, but nothing is encrypted") })
    }

    @Test func refusesPasswordProtectedZip() throws {
        let entries = try makeEPUBEntries().map { $0.encrypted() }
        #expect {
            try EPUBBook(bytes: makeZip(entries))
        } throws: { error in
            guard case EPUBError.encrypted(let reason) = error else { return false }
            return reason.contains("password")
        }
    }

    @Test func salvagesBackslashEntryNames() throws {
        let entries = try makeEPUBEntries().map { entry -> TestZipEntry in
            var copy = entry
            copy.name = copy.name.map { $0 == UInt8(ascii: "/") ? UInt8(ascii: "\\") : $0 }
            return copy
        }
        let book = try EPUBBook(bytes: makeZip(entries))
        #expect(book.package.spine.count == 2)
        #expect(book.package.warnings.contains { $0.message.contains("backslash") })
        #expect(try book.data(forHref: "one.xhtml") == utf8(chapter("One")))
    }

    @Test func salvagesWrongCaseAndPercentEncodedHrefs() throws {
        let opf = packageDocument(chapters: ["chapter%20one.xhtml", "two.xhtml"])
        let bytes = makeEPUB([("OEBPS/content.opf", opf), ("OEBPS/Chapter One.xhtml", chapter("One"))])
        let book = try EPUBBook(bytes: bytes)
        #expect(book.package.spine.first?.href == "chapter one.xhtml")
        #expect(book.package.warnings.contains { $0.message.contains("case differs") })
        #expect(try book.data(forHref: "chapter one.xhtml") == utf8(chapter("One")))
        // Outside the manifest, the same fallback adds a lookup warning.
        _ = try book.data(forHref: "ONE.xhtml")
        #expect(book.lookupWarnings.count == 1)
    }

    @Test func mimetypeProblemsAreWarnings() throws {
        let missing = try EPUBBook(bytes: makeEPUB(mimetype: false))
        #expect(missing.package.warnings.contains { $0.message.contains("no mimetype") })
        let late = try EPUBBook(
            bytes: makeZip(
                (try makeEPUBEntries()).filter { $0.name != utf8("mimetype") } + [.stored("mimetype", "text/plain")]))
        #expect(late.package.warnings.contains { $0.message.contains("not the first") })
        #expect(late.package.warnings.contains { $0.message.contains("text/plain") })
    }

    @Test func fallsBackFromBrokenNavToNCX() throws {
        let opf = packageDocument(chapters: ["one.xhtml", "two.xhtml"], ncx: "toc.ncx")
        let brokenNav = "<html><body><p>no nav here</p></body></html>"
        let book = try EPUBBook(
            bytes: makeEPUB([
                ("OEBPS/content.opf", opf), ("OEBPS/nav.xhtml", brokenNav),
                ("OEBPS/toc.ncx", ncxDocument([("one.xhtml", "First"), ("two.xhtml", "Second")])),
            ]))
        #expect(book.package.tocSource == .ncx)
        #expect(book.package.tocDocument == "toc.ncx")
        #expect(book.package.toc.map(\.label) == ["First", "Second"])
        #expect(book.package.warnings.contains { $0.message.contains("NCX instead") })
    }

    @Test func tocWhoseLinksPointAtNothingIsUnusable() throws {
        let book = try EPUBBook(bytes: makeEPUB([("OEBPS/nav.xhtml", navDocument([("ghost.xhtml", "Ghost")]))]))
        #expect(book.package.tocSource == .none)
        #expect(book.package.toc.isEmpty)
        #expect(book.package.warnings.contains { $0.message.contains("no usable table of contents") })
    }

    @Test func navInAnotherFolderResolvesAgainstItself() throws {
        let opf = packageDocument(chapters: ["text/one.xhtml"], nav: "nav/nav.xhtml")
        let book = try EPUBBook(
            bytes: makeEPUB([
                ("OEBPS/content.opf", opf), ("OEBPS/text/one.xhtml", chapter("One")),
                ("OEBPS/nav/nav.xhtml", navDocument([("../text/one.xhtml#start", "One")])),
            ]))
        #expect(book.package.toc.first?.target == EPUBLink(path: "text/one.xhtml", fragment: "start"))
        #expect(book.package.tocSource == .nav)
    }
}

/// The entries of `makeEPUB()`'s book, to modify.
func makeEPUBEntries() throws -> [TestZipEntry] {
    let archive = try ZipArchive(bytes: makeEPUB())
    return try archive.entries.map { TestZipEntry.stored($0.name, try archive.read(index: $0.index)) }
}
