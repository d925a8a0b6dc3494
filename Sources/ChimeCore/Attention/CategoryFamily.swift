extension String {
    /// Whether this category is `family` or one of its subcategories: `im` and `im.received` are
    /// both in `im`.
    func isCategory(in family: String) -> Bool {
        self == family || hasPrefix(family + ".")
    }
}
