#include <flite/flite.h>

// The voices' registration functions have no header of their own in flite1-dev; these are their
// signatures as the voice libraries export them (flite 2.2, lang/cmu_us_*/cmu_us_*.c).
cst_voice *register_cmu_us_slt(const char *voxdir);
cst_voice *register_cmu_us_rms(const char *voxdir);
cst_voice *register_cmu_us_awb(const char *voxdir);
cst_voice *register_cmu_us_kal16(const char *voxdir);
