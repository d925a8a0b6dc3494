extension String {
    /// Whether any UTF-8 byte satisfies `test`: a loop over the string's own storage, several
    /// times faster than walking `utf8` through its index type (this runs on every Notify body).
    @inlinable
    public func containsByte(where test: (UInt8) -> Bool) -> Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ $0.contains(where: test) }) { return found }
        return utf8.contains(where: test)
    }
}
