import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers a request the HTTP parser refuses (a header larger than the decoder's limit, a malformed
/// request line) with a JSON 400, as every other error, then closes the connection. Hummingbird's own
/// answer to a parser error is a 400 with an empty body.
///
/// It sits after the HTTP/1.1 codec; it answers only between requests (a refused request never
/// reached the application). A parser error in the middle of a request, whose answer is already
/// on its way, goes on to Hummingbird, which closes the connection.
final class ParserErrorResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// True from a request's head until its response's end.
    private var inRequest = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { inRequest = true }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { inRequest = false }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, !inRequest else {
            context.fireErrorCaught(error)
            return
        }
        // The request never reached the application: its id is made here (a header it sent
        // cannot be trusted to have been read whole).
        let id = RequestTrace.id(from: nil)
        let message = "the request cannot be read as HTTP/1.1 (\(Self.reason(error)))"
        let body = Data(#"{"error":"bad-request","message":"\#(message)","requestId":"\#(id)"}"#.utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[RequestTrace.header] = id
        headers[.contentLength] = String(body.count)
        headers[.connection] = "close"
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .badRequest, headerFields: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// A few words on what the parser refused.
    static func reason(_ error: any Error) -> String {
        switch error as? HTTPParserError {
        case .headerOverflow?: return "its headers are too large"
        case .invalidURL?: return "its URL is not valid"
        case .invalidMethod?: return "its method is not valid"
        default: return "it is malformed"
        }
    }
}
