#if Server
    import WebImage

    extension ServiceConfiguration {
        /// The processing options a request starts from before its presets and URL apply: the
        /// settings that give an option's default, as imgproxy's `IMGPROXY_KEEP_COPYRIGHT` and
        /// `IMGPROXY_ENFORCE_THUMBNAIL` and `IMGPROXY_PRESERVE_HDR` do.
        var optionDefaults: ProcessingOptions {
            var options = ProcessingOptions()
            options.keepCopyright = keepsCopyright
            options.enforceThumbnail = enforcesThumbnail
            options.preserveHDR = preservesHDR
            return options
        }
    }
#endif
