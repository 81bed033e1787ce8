"""One plain function per command; the CLI only parses options and calls them."""
