// The policy layer is a front end's one import (with ArgumentParser or the server's frameworks): the
// modules whose types its API names come with it, as swift-nio's `NIO` brings `NIOCore`. What they
// keep internal (the worker's wire format, the coordinator) stays out of reach.
@_exported public import BookText
@_exported public import Bundling
@_exported public import Contracts
@_exported public import Conversion
@_exported public import EPUBReader
@_exported public import ReadAlong
@_exported public import Subtitles
@_exported public import TagEditing
