extension String {
    /// Whether this category is `family` or one of its subcategories: `im` and `im.received` are
    /// both in `im`. Compared byte for byte: it runs several times on every Notify, where
    /// `hasPrefix` cost a few hundred instructions each time.
    func isCategory(in family: StaticString) -> Bool {
        withUTF8Bytes { bytes in
            let count = family.utf8CodeUnitCount
            return bytes.hasBytes(family, at: 0) && (bytes.count == count || bytes[count] == UInt8(ascii: "."))
        }
    }
}
