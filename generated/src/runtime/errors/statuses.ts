/**
 * The statuses an ApiError can have, as types, and the check behind each
 * generated `is…Error` guard. fetch hands over statuses 200 to 599 and a 2XX
 * is an answer, so an error's status is 300 to 599 (a 3XX fetch did not
 * follow, a 4XX, a 5XX). The unions are written out so that an operation's
 * error type can say "every other status" (`OtherStatus<404 | 422>`) and
 * TypeScript still narrows it by `statusCode === 404`, which `number` would not.
 */
import { ApiError } from "./errors.js";

/** 300 to 399. */
export type RedirectStatus =
  | 300 | 301 | 302 | 303 | 304 | 305 | 306 | 307 | 308 | 309 | 310 | 311 | 312 | 313 | 314 | 315 | 316 | 317 | 318 | 319
  | 320 | 321 | 322 | 323 | 324 | 325 | 326 | 327 | 328 | 329 | 330 | 331 | 332 | 333 | 334 | 335 | 336 | 337 | 338 | 339
  | 340 | 341 | 342 | 343 | 344 | 345 | 346 | 347 | 348 | 349 | 350 | 351 | 352 | 353 | 354 | 355 | 356 | 357 | 358 | 359
  | 360 | 361 | 362 | 363 | 364 | 365 | 366 | 367 | 368 | 369 | 370 | 371 | 372 | 373 | 374 | 375 | 376 | 377 | 378 | 379
  | 380 | 381 | 382 | 383 | 384 | 385 | 386 | 387 | 388 | 389 | 390 | 391 | 392 | 393 | 394 | 395 | 396 | 397 | 398 | 399;

/** 400 to 499. */
export type ClientErrorStatus =
  | 400 | 401 | 402 | 403 | 404 | 405 | 406 | 407 | 408 | 409 | 410 | 411 | 412 | 413 | 414 | 415 | 416 | 417 | 418 | 419
  | 420 | 421 | 422 | 423 | 424 | 425 | 426 | 427 | 428 | 429 | 430 | 431 | 432 | 433 | 434 | 435 | 436 | 437 | 438 | 439
  | 440 | 441 | 442 | 443 | 444 | 445 | 446 | 447 | 448 | 449 | 450 | 451 | 452 | 453 | 454 | 455 | 456 | 457 | 458 | 459
  | 460 | 461 | 462 | 463 | 464 | 465 | 466 | 467 | 468 | 469 | 470 | 471 | 472 | 473 | 474 | 475 | 476 | 477 | 478 | 479
  | 480 | 481 | 482 | 483 | 484 | 485 | 486 | 487 | 488 | 489 | 490 | 491 | 492 | 493 | 494 | 495 | 496 | 497 | 498 | 499;

/** 500 to 599. */
export type ServerErrorStatus =
  | 500 | 501 | 502 | 503 | 504 | 505 | 506 | 507 | 508 | 509 | 510 | 511 | 512 | 513 | 514 | 515 | 516 | 517 | 518 | 519
  | 520 | 521 | 522 | 523 | 524 | 525 | 526 | 527 | 528 | 529 | 530 | 531 | 532 | 533 | 534 | 535 | 536 | 537 | 538 | 539
  | 540 | 541 | 542 | 543 | 544 | 545 | 546 | 547 | 548 | 549 | 550 | 551 | 552 | 553 | 554 | 555 | 556 | 557 | 558 | 559
  | 560 | 561 | 562 | 563 | 564 | 565 | 566 | 567 | 568 | 569 | 570 | 571 | 572 | 573 | 574 | 575 | 576 | 577 | 578 | 579
  | 580 | 581 | 582 | 583 | 584 | 585 | 586 | 587 | 588 | 589 | 590 | 591 | 592 | 593 | 594 | 595 | 596 | 597 | 598 | 599;

/** Every status an ApiError can have. */
export type ErrorStatus = RedirectStatus | ClientErrorStatus | ServerErrorStatus;

/** The statuses of `Among` (default: all) but `Declared`: what a `default` response (or a `4XX` range beside its own codes) describes. */
export type OtherStatus<Declared extends number, Among extends number = ErrorStatus> = Exclude<Among, Declared>;

/**
 * Whether `error` is an ApiError of the operation `operationId` with a status
 * it declares: one of `statuses`, given as codes (`404`) or ranges (`"4XX"`);
 * any status when `statuses` is left out (the operation declares `default`).
 * The generated `is…Error` guards call it with the spec's statuses.
 */
export function isOperationError(error: unknown, operationId: string, statuses?: readonly (number | string)[]): error is ApiError<unknown> {
  if (!(error instanceof ApiError) || error.operationId !== operationId) return false;
  return statuses === undefined || statuses.includes(error.statusCode) || statuses.includes(`${Math.floor(error.statusCode / 100)}XX`);
}
