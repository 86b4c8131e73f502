"""Git at the edge: blobs at a ref, `diff` between refs, and the manifest merge driver."""
