{
  "targets": [
    {
      "target_name": "neardup_kernel",
      "sources": ["native/kernel.c", "native/kernelbuckets.c", "native/fingerprint.c", "native/tokenize.c", "native/simhash.c", "native/regiondoc.c", "native/comments.c", "native/allpairs.c", "native/allpairstables.c", "native/allpairsthreads.c", "native/pairsort.c", "native/dropnested.c", "native/kernelpairs.c", "native/sections.c", "native/sectionbraces.c", "native/prosesections.c", "native/align.c", "native/seeds.c", "native/seedsthreads.c", "native/buckets.c", "native/textshape.c", "native/threads.c", "native/regionplan.c", "native/regionsides.c", "native/regiongroups.c", "native/copysearch.c", "native/listdir.c", "native/readcode.c", "native/regionblocks.c", "native/hugepages.c", "native/utf8code.c"],
      "cflags": ["-O3", "-std=c11", "-ffp-contract=off", "-fno-fast-math"],
      "xcode_settings": { "OTHER_CFLAGS": ["-O3", "-std=c11", "-ffp-contract=off"] },
      "msvs_settings": { "VCCLCompilerTool": { "Optimization": 2, "FloatingPointModel": 0 } }
    }
  ]
}
