console.error('neardup: not built yet'); process.exit(2);
