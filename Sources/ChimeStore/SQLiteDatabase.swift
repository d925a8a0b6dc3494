import CSQLite
import ChimeCore

/// One SQLite connection with prepared statements; errors become `StoreError` in one place.
/// Confined to the thread that opened it.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// chimed reads none of SQLite's memory statistics, which cost two mutex operations on each of
    /// the 50 or so allocations a Notify's insert makes. They can be turned off only before SQLite
    /// starts, so before the first open.
    private static let configured: Void = { _ = chime_sqlite_disable_memory_statistics() }()

    init(path: String) throws(StoreError) {
        _ = Self.configured
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            handle = nil
            throw StoreError(message, code: result)
        }
        // Long enough for a chimed being replaced (--replace) to close the file it holds.
        sqlite3_busy_timeout(handle, 3_000)
        TextFold.register(on: handle)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close(handle)
    }

    /// False once a failed statement (a full disk, say) made SQLite roll the transaction back.
    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
    /// Rows inserted, changed or deleted through this connection since it opened.
    var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    func execute(_ sql: String) throws(StoreError) {
        var error: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(handle, sql, nil, nil, &error)
        guard result == SQLITE_OK else {
            defer { sqlite3_free(error) }
            throw StoreError(error.map { String(cString: $0) } ?? "error", code: result)
        }
    }

    enum Value: Equatable {
        case integer(Int64)
        case real(Double)
        case text(String)
        case null

        static func optional(_ text: String?) -> Value { text.map { .text($0) } ?? .null }
        static func optional(_ number: Int64?) -> Value { number.map { .integer($0) } ?? .null }
        static func optional(_ number: Double?) -> Value { number.map { .real($0) } ?? .null }
    }

    /// Runs `sql` with `values` bound in order; `row` is called for each result row.
    func run(_ sql: String, _ values: [Value] = [], row: ((Row) -> Void)? = nil) throws(StoreError) {
        try run(sql, values, while: row.map { row in { row($0); return true } })
    }

    /// Runs a query and reads its rows while `row` returns true.
    func run(_ sql: String, _ values: [Value] = [], while row: ((Row) -> Bool)?) throws(StoreError) {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement) }
        var binder = Binder(statement: statement)
        for value in values { binder.bind(value) }
        // Parameters left unbound are null, not what the last run bound.
        while binder.bound < sqlite3_bind_parameter_count(statement) { binder.null() }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return }
            guard step == SQLITE_ROW else { throw StoreError(String(cString: sqlite3_errmsg(handle)), code: step) }
            if let row, !row(Row(statement: statement)) { return }
        }
    }

    /// Binds parameters ?1, ?2, ... in the order it is given them.
    private struct Binder {
        let statement: OpaquePointer
        private var position: Int32 = 0
        /// How many parameters were bound.
        var bound: Int32 { position }

        init(statement: OpaquePointer) { self.statement = statement }

        mutating func integer(_ number: Int64) {
            position += 1
            sqlite3_bind_int64(statement, position, number)
        }

        mutating func text(_ text: String) {
            position += 1
            // Only a copy SQLite cannot allocate (no memory left) fails, leaving the parameter NULL.
            _ = text.withUTF8Bytes { chime_sqlite_bind_text_copy(statement, position, $0.baseAddress, Int32($0.count)) }
        }

        mutating func real(_ number: Double) {
            position += 1
            sqlite3_bind_double(statement, position, number)
        }

        mutating func null() {
            position += 1
            sqlite3_bind_null(statement, position)
        }

        mutating func bind(_ value: Value) {
            switch value {
            case .integer(let number): integer(number)
            case .real(let number): real(number)
            case .text(let text): self.text(text)
            case .null: null()
            }
        }
    }

    struct Row {
        let statement: OpaquePointer
        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        /// nil for NULL, where `integer` and `real` would say 0.
        func real(_ column: Int32) -> Double? {
            sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : sqlite3_column_double(statement, column)
        }
        func text(_ column: Int32) -> String? {
            sqlite3_column_text(statement, column).map { String(cString: $0) }
        }
    }

    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement else { throw StoreError(String(cString: sqlite3_errmsg(handle)), code: sqlite3_errcode(handle)) }
        statements[sql] = statement
        return statement
    }

}

public struct StoreError: Error, CustomStringConvertible {
    public var description: String
    /// SQLite's result code, when SQLite said it.
    public var code: Int32
    init(_ description: String, code: Int32 = SQLITE_ERROR) {
        self.description = description
        self.code = code
    }

    /// Another process holds the database (SQLITE_BUSY or SQLITE_LOCKED).
    public var isLocked: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }
    /// The file could not be reached or written (no folder, no permission, a read-only or full
    /// disk), which says nothing of what it holds.
    public var isAccessFailure: Bool {
        [SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_AUTH, SQLITE_NOMEM].contains(code & 0xff)
    }
}
