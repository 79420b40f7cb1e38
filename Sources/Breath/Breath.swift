// Breath module.
