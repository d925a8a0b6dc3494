import CDBus
import ChimeCore
import Foundation
import Glibc
import Testing
@testable import ChimeDBus

/// Calls as a hostile or broken client sends them: random methods of the three interfaces (the
/// portal backend's as its frontend calls them), and ones that are not there, random signatures,
/// the hints Chime reads with values of every type and of many sizes, file descriptors among them. Seeded, so a failure comes back the same; bounded in count (4,000 calls) and
/// bytes. After them chimed still answers every call, and another client's Notify still works.
@Suite struct FuzzTests {
    /// SplitMix64: small, seeded, the same on every machine.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    }

    static let notificationsMethods = ["GetCapabilities", "Notify", "CloseNotification", "GetServerInformation"]
    static let controlMethods = [
        "GetStatus", "List", "History", "Show", "Read", "ReadApp", "Restore", "Snooze", "Delete", "Clear", "GetBadges",
        "Invoke", "InvokeWithToken", "Reply", "Dismiss", "DismissAll", "DismissApp", "FocusList", "FocusOn", "FocusOff",
        "FocusStatus", "Inhibit", "UnInhibit", "ListRules", "ListApps", "GetApp", "SetApp", "SummaryList", "SummaryNow",
        "SetPointerOver", "SetMuted",
    ]
    static let hintNames = HintName.allCases.map(\.text) + ["x-unknown", "image_data", "icon_data"]
    static let portalMethods = ["AddNotification", "RemoveNotification"]
    static let portalKeys = ["title", "body", "markup-body", "icon", "sound", "priority", "default-action", "default-action-target",
                             "buttons", "category", "display-hint", "x-unknown"]

    static func text(_ random: inout Random) -> String {
        switch random.below(10) {
        case 0: return ""
        case 1: return String(repeating: "é", count: random.pick([1_000, 40_000]))
        case 2: return "<b>bold <a href=\"javascript:x\">link</a> <img src=\"/dev/zero\"/> & <br> </i>"
        case 3: return "/dev/zero"
        case 4: return "file:///proc/self/mem"
        case 5: return String(repeating: "k", count: random.below(3_000))
        default: return "t\(random.below(50))"
        }
    }

    /// A value of a random type, nested at most `depth` deep.
    static func value(_ random: inout Random, depth: Int = 2) -> BusValue {
        switch random.below(depth > 0 ? 16 : 10) {
        case 0: return .byte(UInt8(truncatingIfNeeded: random.next()))
        case 1: return .bool(random.chance(50))
        case 2: return .int16(Int16(truncatingIfNeeded: random.next()))
        case 3: return .int32(Int32(truncatingIfNeeded: random.next()))
        case 4: return .uint32(UInt32(truncatingIfNeeded: random.next()))
        case 5: return .int64(Int64(bitPattern: random.next()))
        case 6: return .double(random.pick([0, -1, 0.5, 2, .infinity, .nan, 1e308]))
        case 7, 8: return .string(text(&random))
        case 9: return .bytes([UInt8](repeating: 7, count: random.pick([0, 3, 4_096, 70_000])))
        case 10: return .stringArray((0..<random.pick([0, 2, 3, 200])).map { _ in text(&random) })
        case 11: return .variant(value(&random, depth: depth - 1))
        case 12:
            // Sometimes the shape of image-data, with values that lie about the pixels.
            let side = Int32(random.pick([0, 1, 64, 5_000, -3]))
            return .structure([.int32(side), .int32(side), .int32(side * 4), .bool(true), .int32(8), .int32(4),
                               .bytes([UInt8](repeating: 1, count: random.pick([0, 16, 16_384])))])
        case 14:
            // A descriptor (of /dev/null), bare or as the portal wraps one.
            return random.chance(50) ? .unixFD(0) : .structure([.string("file-descriptor"), .variant(.unixFD(0))])
        default:
            return .vardict((0..<random.below(4)).map { _ in (random.pick(hintNames + portalKeys), value(&random, depth: depth - 1)) })
        }
    }

    static func notifyArguments(_ random: inout Random) -> [BusValue] {
        let hints = (0..<random.below(12)).map { _ in (random.pick(hintNames), value(&random)) }
        var actions = (0..<random.pick([0, 2, 4, 40])).map { _ in text(&random) }
        if random.chance(10) { actions.append("odd") }
        return [.string(text(&random)), .uint32(random.chance(20) ? UInt32(random.below(50)) : 0), .string(text(&random)),
                .string(text(&random)), .string(text(&random)), .stringArray(actions), .vardict(hints),
                .int32(Int32(random.pick([-1, 0, 1, 5_000, -7])))]
    }

    /// `descriptor`: what the calls' descriptors are duplicates of.
    static func message(_ random: inout Random, descriptor: Int32) -> Message {
        let side = ProcessInfo.processInfo.environment["FUZZ_SIDE"] ?? random.pick(["control", "notifications", "portal"])
        let (destination, path, interface, methods) = switch side {
        case "control": ("dev.chime.Chime1", "/dev/chime/Chime1", "dev.chime.Chime1", controlMethods)
        case "portal": (PortalTests.name, PortalTests.path, PortalTests.interface, portalMethods)
        default: ("org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications", notificationsMethods)
        }
        let method = random.chance(5) ? "NoSuchMethod" : random.pick(methods)
        let arguments: [BusValue]
        if method == "Notify", random.chance(70) {
            arguments = notifyArguments(&random)
        } else if method == "AddNotification", random.chance(70) {
            let entries = (0..<random.below(8)).map { _ in (random.pick(portalKeys), value(&random)) }
            arguments = [.string(random.pick(["org.example.Chat", "", "a]b"])), .string(text(&random)), .vardict(entries)]
        } else {
            arguments = (0..<random.below(5)).map { _ in value(&random) }
        }
        return .methodCall(destination: random.chance(3) ? "org.freedesktop.Notifications" : destination,
                           path: random.chance(3) ? "/" : path, interface: interface, method: method, arguments: arguments,
                           descriptors: [descriptor])
    }

    @Test(arguments: [UInt64(1), 2])
    func chimedAnswersEveryRandomCallAndStays(seed: UInt64) throws {
        let bus = try TestBus()
        // The portal's frontend, so its calls are taken and read, not refused at the door.
        let fuzzer = try PortalTests.frontend(bus)
        let null = open("/dev/null", O_RDONLY)
        defer { close(null) }
        var random = Random(state: seed)
        var sent = 0
        var described: [UInt32: String] = [:]
        // In batches, each answered before the next: a bounded backlog, and a failure near its cause.
        for batch in 0..<20 {
            for _ in 0..<100 {
                let message = Self.message(&random, descriptor: null)
                var serial: UInt32 = 0
                dbus_connection_send(fuzzer.connection.raw, message.raw, &serial)
                described[serial] = "\(message.destination ?? "") \(message.path ?? "") \(message.interface ?? "").\(message.member ?? "")(\(message.signature))"
                sent += 1
            }
            fuzzer.connection.flush()
            #expect(fuzzer.waitUntil(timeout: 30) { fuzzer.replies.count == sent },
                    "batch \(batch): \(fuzzer.replies.count) of \(sent) answered; chimed said: \(bus.daemonLog.suffix(1_500))")
            if fuzzer.replies.count != sent {
                let answered = Set(fuzzer.replies.map { dbus_message_get_reply_serial($0.raw) })
                print("UNANSWERED", described.filter { !answered.contains($0.key) }.map(\.value).prefix(10))
            }
            guard bus.daemon?.isRunning == true else { break }
        }
        #expect(bus.daemon?.isRunning == true, Comment(rawValue: bus.daemonLog.suffix(3_000).description))
        let bystander = try bus.client()
        let id = try bystander.notify(app: "bystander", summary: "still here")
        #expect(try bystander.list().contains { $0["id"] == .uint32(id) })
        #expect(try bus.chimectl("status").status == 0)
    }
}
