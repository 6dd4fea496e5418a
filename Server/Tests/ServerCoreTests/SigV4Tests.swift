import Foundation
import Testing

@testable import ServerCore

/// SigV4 against AWS's published vectors: the sig-v4 test suite (credentials AKIDEXAMPLE, region
/// us-east-1, service "service", 2015-08-30T12:36:00Z) and the S3 documentation's GET Object example.
@Suite struct SigV4Tests {
    static let suite = SigV4Signer(
        accessKey: "AKIDEXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region: "us-east-1",
        service: "service")
    static let suiteDate = Date(timeIntervalSince1970: 1_440_938_160)

    struct Vector: Sendable, CustomStringConvertible {
        var name: String
        var method: String
        var path: String
        var query: [(String, String)]
        var signature: String
        var description: String { name }
    }

    static let vectors = [
        Vector(
            name: "get-vanilla", method: "GET", path: "/", query: [],
            signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
        Vector(
            name: "post-vanilla", method: "POST", path: "/", query: [],
            signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"),
        Vector(
            name: "get-vanilla-query-order-key-case", method: "GET", path: "/",
            query: [("Param2", "value2"), ("Param1", "value1")],
            signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
        Vector(
            name: "get-unreserved", method: "GET",
            path: "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", query: [],
            signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"),
    ]

    @Test(arguments: vectors)
    func theTestSuiteVectors(vector: Vector) {
        let headers = Self.suite.sign(
            method: vector.method, path: vector.path, query: vector.query, headers: ["Host": "example.amazonaws.com"],
            payloadSHA256: SigV4Signer.emptyPayloadSHA256, date: Self.suiteDate)
        #expect(headers["x-amz-date"] == "20150830T123600Z")
        #expect(
            headers["Authorization"]
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=host;x-amz-date, Signature=\(vector.signature)")
    }

    @Test func theS3GetObjectExample() {
        let signer = SigV4Signer(
            accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            region: "us-east-1")
        let headers = signer.sign(
            method: "GET", path: "/test.txt",
            headers: [
                "Host": "examplebucket.s3.amazonaws.com", "Range": "bytes=0-9",
                "x-amz-content-sha256": SigV4Signer.emptyPayloadSHA256,
            ],
            payloadSHA256: SigV4Signer.emptyPayloadSHA256, date: Date(timeIntervalSince1970: 1_369_353_600))
        #expect(
            headers["Authorization"]
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    /// S3's "Authenticating Requests: Using Query Parameters" example: GET test.txt of examplebucket,
    /// valid 86400 s from 2013-05-24T00:00:00Z, and its published signature.
    @Test func theS3PresignedURLExample() {
        let signer = SigV4Signer(
            accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            region: "us-east-1")
        let query = signer.presignedQuery(
            method: "GET", path: "/test.txt", host: "examplebucket.s3.amazonaws.com", expires: 86400,
            date: Date(timeIntervalSince1970: 1_369_353_600))
        #expect(
            query
                == "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3"
                + "%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test(arguments: [("a b", "a%20b"), ("/", "%2F"), ("é", "%C3%A9"), ("A-z_0.~", "A-z_0.~"), ("+=", "%2B%3D")])
    func encodingKeepsOnlyUnreservedCharacters(text: String, encoded: String) {
        #expect(SigV4Signer.encode(text) == encoded)
    }
}
