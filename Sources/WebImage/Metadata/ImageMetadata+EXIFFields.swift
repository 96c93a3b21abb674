import Foundation

extension ImageMetadata {
    /// The fields of the ``exif`` block by name, as imgproxy's `/info` endpoint reports them;
    /// empty when there is no block or it is not TIFF-structured data.
    ///
    /// Reads IFD0 and the Exif, GPS and Interoperability IFDs it points to (not IFD1, the
    /// thumbnail's). Fields are keyed by the readable titles libexif gives the tags
    /// (`Date and Time (Original)`, `Manufacturer`, `Aperture`) or, with `canonicalNames`, by
    /// their EXIF names (`DateTimeOriginal`, `Make`, `ApertureValue`). A tag the tables do not
    /// know is keyed by its number in both forms, as `Tag 0xC612`; when two tags share a name the
    /// first one read wins.
    ///
    /// Text is text with NULs and trailing white space dropped; BYTE, SHORT and LONG values are
    /// whole numbers; RATIONAL values are exact fraction text (`"72/1"`); a tag with several
    /// components is a list. Enumerated tags read as their meaning (`Orientation` 6 is
    /// `"Right-top"`, `Flash` 0 `"Flash did not fire"`), and a few read as libexif prints them
    /// (`ExposureTime` `"1/250 sec."`, `FNumber` `"f/16.0"`, `ApertureValue`
    /// `"8.00 EV (f/16.0)"`, `FocalLength` `"50.0 mm"`). Skipped: the maker note, the IFD
    /// pointers, embedded XMP, IPTC, Photoshop and ICC blocks, binary UNDEFINED data, numeric
    /// tags of more than 256 components and text over 64 KiB.
    ///
    /// Any bytes are safe to pass: offsets out of range, IFDs that point at themselves, counts
    /// of 0xFFFFFFFF and truncated data give the fields that could be read, and the work and
    /// memory are bounded (at most 1,024 fields).
    public func exifFields(canonicalNames: Bool = false) -> [String: MetadataValue] {
        guard let exif else { return [:] }
        return EXIFFieldReader.fields(in: exif, canonicalNames: canonicalNames)
    }
}
