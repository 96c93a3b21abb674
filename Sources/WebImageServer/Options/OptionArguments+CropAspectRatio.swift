#if Server
    import WebImage

    extension OptionArguments {
        /// `car:RATIO[:ENLARGE]`: a finite ratio of at least 0 (0 turns the correction off).
        func cropAspectRatio() throws(ServiceError) -> ProcessingOptions.CropAspectRatio? {
            guard (1...2).contains(values.count) else { throw failure("takes 1 or 2 arguments, got \(values.count)") }
            let ratio = values[0].isEmpty ? 0 : try number(values[0], atLeast: 0)
            let enlarges = values.count > 1 && !values[1].isEmpty ? try boolean(values[1]) : false
            return ratio > 0 ? ProcessingOptions.CropAspectRatio(ratio: ratio, enlarges: enlarges) : nil
        }
    }
#endif
