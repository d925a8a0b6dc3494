import ChimeCore
import ChimeDBus
import Foundation

/// A libdbus client for the measurements: blocking calls, pipelined sends, signal waits.
final class BenchClient: @unchecked Sendable {
    let connection: BusConnection
    private(set) var repliesSeen = 0
    private(set) var errorsSeen = 0
    private(set) var replyTimes: [UInt64] = []
    private(set) var signalsSeen: [String] = []
    private(set) var closedIDs: Set<UInt32> = []
    /// Whether the last `sequential` run ended on a call the server did not answer in time.
    private(set) var lastCallUnanswered = false
    var recordReplyTimes = false
    /// Makes every body of the run differ: this client's tag and a count of what it sent.
    private let tag = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    private var notifiesMade = 0
    /// With a number, every so many notifications is one over Chime's limits (`oversized`).
    var oversizedEvery: Int?

    init(address: String) throws {
        connection = try BusConnection(address: address)
        connection.setHandler { [unowned self] message in
            switch message.kind {
            case .methodReturn, .error:
                repliesSeen += 1
                if message.kind == .error { errorsSeen += 1 }
                if recordReplyTimes { replyTimes.append(nanoseconds()) }
            case .signal:
                signalsSeen.append(message.member ?? "")
                if message.member == "NotificationClosed", case .uint32(let id)? = message.arguments.first { closedIDs.insert(id) }
            default: break
            }
            return true
        }
    }

    static let body = String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 4).prefix(200)

    /// The next Notify: its body differs from every other of the run (it starts with this
    /// client's tag and count; each phase counting from 0 again made later phases repeats of
    /// earlier ones, which Chime merges), so none is merged as a repeat.
    func notify(app: String = "Bench", image: BusValue? = nil) -> Message {
        notifiesMade += 1
        if let every = oversizedEvery, notifiesMade % every == 0 { return oversized() }
        let number = "\(tag)-\(notifiesMade) "
        let text = number + Self.body.dropFirst(number.utf8.count)
        var hints: [(String, BusValue)] = [("urgency", .byte(1)), ("category", .string("im.received")),
                                           ("desktop-entry", .string("org.example.Bench"))]
        if let image { hints.append(("image-data", image)) }
        return .methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                           interface: "org.freedesktop.Notifications", method: "Notify",
                           arguments: [.string(app), .uint32(0), .string(""), .string("Ada Lovelace"), .string(text),
                                       .stringArray(["default", "Open", "reply", "Reply"]), .vardict(hints), .int32(-1)])
    }

    /// For the display phases: a banner as mail and chat send one, from "App N" (each from an app
    /// of its own: several from one app within its thread's cooldown are one banner in Chime).
    /// Returns its id.
    func banner(_ summary: String, app: Int, timeout: Int32) throws -> UInt32 {
        let reply = try connection.call(.methodCall(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications", method: "Notify",
            arguments: [.string("App \(app)"), .uint32(0), .string("mail-unread"), .string(summary),
                        .string("A body of a few words, as mail and chat send them."), .stringArray([]), .vardict([]), .int32(timeout)]))
        return reply.first?.uint32 ?? 0
    }

    /// A notification past every limit Chime keeps: a 200 KB body, 40 actions with 1 KB labels,
    /// 8 KB string hints. Each differs, so none is merged as a repeat.
    func oversized() -> Message {
        let number = "\(tag)-\(notifiesMade) "
        let label = String(repeating: "L", count: 1_000)
        return .methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                           interface: "org.freedesktop.Notifications", method: "Notify",
                           arguments: [.string("Bench"), .uint32(0), .string(""), .string(number + String(repeating: "S", count: 4_000)),
                                       .string(number + String(repeating: "B", count: 200_000)),
                                       .stringArray((0..<40).flatMap { ["k\($0)", label] }),
                                       .vardict([("x-chime-thread", .string(String(repeating: "t", count: 8_000))),
                                                 ("x-kde-reply-placeholder-text", .string(String(repeating: "p", count: 8_000)))]),
                                       .int32(-1)])
    }

    static let image: BusValue = .structure([.int32(64), .int32(64), .int32(256), .bool(true), .int32(8), .int32(4),
                                             .bytes([UInt8](repeating: 0x7f, count: 64 * 256))])

    /// Round-trip times of `count` sequential calls, in nanoseconds; stops early after `limit` seconds.
    func sequential(_ count: Int, image: BusValue? = nil, app: String = "Bench", limit: Double = .infinity) throws -> [UInt64] {
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        lastCallUnanswered = false
        let deadline = Double(nanoseconds()) + limit * 1e9
        for _ in 0..<count where Double(nanoseconds()) < deadline {
            let message = notify(app: app, image: image)
            let start = nanoseconds()
            let timeout = Int32(min(60_000.0, max(1_000.0, limit * 1_000)))
            let result = Result { () throws(BusError) in try connection.call(message, timeoutMilliseconds: timeout) }
            if case .failure(let error) = result {
                // A server too far behind to answer in time: the wait counts, and the run stops here.
                guard error.name == "org.freedesktop.DBus.Error.NoReply" else { throw error }
                samples.append(nanoseconds() - start)
                lastCallUnanswered = true
                break
            }
            samples.append(nanoseconds() - start)
        }
        return samples
    }

    /// Sends `count` calls without waiting, then collects replies for at most `limit` seconds;
    /// returns each reply's arrival time (fewer than `count` when the server could not keep up).
    func pipelined(_ count: Int, limit: Double) -> (start: UInt64, replies: [UInt64]) {
        windowed(count, inFlight: count, limit: limit)
    }

    /// Keeps at most `inFlight` calls unanswered, sending the next as replies come, for `count`
    /// calls or `limit` seconds; returns each reply's arrival time. With a window the server is
    /// measured in one steady state from the first reply to the last, so its throughput over the
    /// first 1,000 and the last 1,000 compare like with like.
    func windowed(_ count: Int, inFlight: Int, limit: Double) -> (start: UInt64, replies: [UInt64]) {
        repliesSeen = 0
        replyTimes = []
        replyTimes.reserveCapacity(count)
        recordReplyTimes = true
        defer { recordReplyTimes = false }
        let start = nanoseconds()
        let deadline = start + UInt64(limit * 1e9)
        var sent = 0
        while repliesSeen < count, nanoseconds() < deadline {
            while sent < count, sent - repliesSeen < inFlight {
                connection.send(notify())
                sent += 1
            }
            _ = connection.readWriteDispatch(timeoutMilliseconds: 100)
        }
        return (start, replyTimes)
    }

    func waitForSignal(_ member: String, timeout: Double) -> Bool {
        let deadline = nanoseconds() + UInt64(timeout * 1e9)
        while !signalsSeen.contains(member) {
            guard nanoseconds() < deadline else { return false }
            _ = connection.readWriteDispatch(timeoutMilliseconds: 10)
        }
        return true
    }

    /// Nanoseconds from CloseNotification to the NotificationClosed signal, `count` times;
    /// stops early when the server takes longer than `limit` seconds to answer a Notify.
    func closeLatencies(_ count: Int, limit: Double) throws -> [UInt64] {
        try connection.addMatch("type='signal',interface='org.freedesktop.Notifications',member='NotificationClosed'")
        var samples: [UInt64] = []
        for _ in 0..<count {
            let timeout = Int32(min(60_000.0, limit * 1_000))
            guard case .success(let reply) = Result(catching: { () throws(BusError) in
                try connection.call(notify(), timeoutMilliseconds: timeout)
            }) else { break }
            guard case .uint32(let id)? = reply.first else { continue }
            let start = nanoseconds()
            connection.send(.methodCall(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                        interface: "org.freedesktop.Notifications", method: "CloseNotification",
                                        arguments: [.uint32(id)]))
            // The signal for this id: others close meanwhile as older notifications expire.
            let deadline = nanoseconds() + 10_000_000_000
            while !closedIDs.contains(id), nanoseconds() < deadline { _ = connection.readWriteDispatch(timeoutMilliseconds: 10) }
            guard closedIDs.contains(id) else { continue }
            samples.append(nanoseconds() - start)
            signalsSeen.removeAll()
        }
        return samples
    }
}
