/*
 * ref.h - what only the tests and fuzzers need, of every floor: the plain
 * reference twins of optimized functions, against which the tests check
 * them (a module may call its own twin too), and internals of a module
 * that no other module uses.  Each floor's are in its ref-FLOOR.h, which
 * the library files that define them include; no file of the library
 * includes this one.
 */
#ifndef EMB_REF_H
#define EMB_REF_H

#include "base/ref-base.h"
#include "io/ref-io.h"
#include "num/ref-num.h"
#include "knn/ref-knn.h"
#include "eval/ref-eval.h"

#endif /* EMB_REF_H */
