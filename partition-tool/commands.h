/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands, one file each (cmd-NAME.c), dispatched by gamepart.c.
 * Each parses its options, prints its usage and calls the library layer
 * (lib/) or an engine (convert/); none touches the filesystem itself.
 */
#ifndef GAMEPART_COMMANDS_H
#define GAMEPART_COMMANDS_H

int cmd_create(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_casefold(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_fold(int argc, char **argv);
int cmd_import(int argc, char **argv);

#endif
