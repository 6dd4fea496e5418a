import Crypto
import Foundation

/// AWS Signature Version 4 for requests to S3-compatible object stores (the `--store s3://` blob
/// store's signing; tested against AWS's published test-suite vectors): in headers (`sign`), or in
/// the query string of a presigned URL (`presignedQuery`).
///
/// Follows "Create a signed AWS API request" (AWS IAM User Guide): canonical request, string to sign,
/// signing key derived by HMAC-SHA256 from the secret, date, region and service; and, for query
/// signing, S3's "Authenticating Requests: Using Query Parameters".
package struct SigV4Signer: Sendable {
    package var accessKey: String
    package var secretKey: String
    package var region: String
    package var service: String

    /// SHA-256 of an empty payload.
    package static let emptyPayloadSHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    package init(accessKey: String, secretKey: String, region: String, service: String = "s3") {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.region = region
        self.service = service
    }

    /// The headers to add to a request: `x-amz-date` and `Authorization`. `headers` must hold `host`
    /// and every other header to sign (S3 wants `x-amz-content-sha256` among them); `path` is the
    /// URI path before encoding; `query` its parameters before encoding.
    package func sign(
        method: String, path: String, query: [(String, String)] = [], headers: [String: String],
        payloadSHA256: String, date: Date
    ) -> [String: String] {
        let (amzDate, day) = Self.timestamps(date)
        var signed = Dictionary(headers.map { ($0.key.lowercased(), Self.trimmed($0.value)) }) { first, _ in first }
        signed["x-amz-date"] = amzDate
        let names = signed.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(signed[$0]!)\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let canonicalRequest = [
            method, Self.canonicalPath(path), Self.canonicalQuery(query), canonicalHeaders, signedHeaders,
            payloadSHA256,
        ].joined(separator: "\n")
        let scope = scope(day: day)
        let signature = signature(canonicalRequest: canonicalRequest, amzDate: amzDate, day: day)
        return [
            "x-amz-date": amzDate,
            "Authorization":
                "AWS4-HMAC-SHA256 Credential=\(accessKey)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)",
        ]
    }

    /// The query string of a presigned URL for `method` on `path` (the URI path before encoding) at
    /// `host` (the `Host` header the client will send, with its port when not the scheme's), valid
    /// for `expires` seconds from `date`: the `X-Amz-*` parameters, `X-Amz-Security-Token` with a
    /// session token, and `X-Amz-Signature` last; every value encoded. Only `host` is signed, and
    /// the payload is `UNSIGNED-PAYLOAD`, as S3 wants for a URL handed to another client.
    package func presignedQuery(
        method: String, path: String, host: String, expires: Int, date: Date, sessionToken: String? = nil
    ) -> String {
        let (amzDate, day) = Self.timestamps(date)
        var query = [
            ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"), ("X-Amz-Credential", "\(accessKey)/\(scope(day: day))"),
            ("X-Amz-Date", amzDate), ("X-Amz-Expires", String(expires)), ("X-Amz-SignedHeaders", "host"),
        ]
        if let sessionToken { query.append(("X-Amz-Security-Token", sessionToken)) }
        let canonicalQuery = Self.canonicalQuery(query)
        let canonicalRequest = [
            method, Self.canonicalPath(path), canonicalQuery, "host:\(Self.trimmed(host))\n", "host",
            "UNSIGNED-PAYLOAD",
        ].joined(separator: "\n")
        return canonicalQuery + "&X-Amz-Signature="
            + signature(canonicalRequest: canonicalRequest, amzDate: amzDate, day: day)
    }

    /// The credential scope of `day`: `20150830/us-east-1/s3/aws4_request`.
    private func scope(day: String) -> String { "\(day)/\(region)/\(service)/aws4_request" }

    /// The hex HMAC of the string to sign, with the key derived from the secret for `day`.
    private func signature(canonicalRequest: String, amzDate: String, day: String) -> String {
        let stringToSign = [
            "AWS4-HMAC-SHA256", amzDate, scope(day: day), Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8))),
        ]
        .joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(secretKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    /// Parameters encoded, sorted by name then value, joined with `&`.
    static func canonicalQuery(_ query: [(String, String)]) -> String {
        query.map { (Self.encode($0.0), Self.encode($0.1)) }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// Each segment of the path encoded once; `/` for an empty path.
    static func canonicalPath(_ path: String) -> String {
        path.isEmpty
            ? "/"
            : path.split(separator: "/", omittingEmptySubsequences: false)
                .map { Self.encode(String($0)) }.joined(separator: "/")
    }

    /// RFC 3986 percent-encoding of everything but the unreserved characters, as SigV4 requires.
    static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                result.append(Character(UnicodeScalar(byte)))
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    /// Header values trimmed, inner runs of spaces made one.
    static func trimmed(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// `20150830T123600Z` and `20150830`, in UTC.
    static func timestamps(_ date: Date) -> (String, String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = String(format: "%04d%02d%02d", c.year!, c.month!, c.day!)
        return (day + String(format: "T%02d%02d%02dZ", c.hour!, c.minute!, c.second!), day)
    }

    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
