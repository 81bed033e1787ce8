"""Writing finished files: PDFs that are the same bytes for the same input, written atomically."""
