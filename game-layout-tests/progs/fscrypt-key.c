// SPDX-License-Identifier: GPL-2.0
/*
 * fscrypt-key: fscrypt v2 keys and policies from the shell, for the guest
 * tests of encrypted casefolded directories.
 *
 *   fscrypt-key add MNT             read a 64-byte raw key on stdin, add it
 *                                   to the filesystem at MNT, print its
 *                                   identifier (32 hex digits)
 *   fscrypt-key policy DIR ID       encrypt the empty DIR under key ID
 *                                   (AES-256-XTS contents, AES-256-CTS names)
 *   fscrypt-key remove MNT ID       remove key ID; prints "busy" if files
 *                                   still in use kept it partly present
 *
 * Debian's fscrypt(1) keeps its configuration in /etc, which in the guest
 * is the host's, and its keys behind PAM: too much for a test.  These are
 * the three ioctls of Documentation/filesystems/fscrypt.rst, nothing else.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fscrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define KEY_SIZE 64

static int usage(void)
{
	fputs("usage: fscrypt-key add MNT | policy DIR ID | remove MNT ID\n", stderr);
	return 2;
}

static int open_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		fprintf(stderr, "fscrypt-key: %s: %s\n", path, strerror(errno));
	return fd;
}

static int parse_identifier(const char *hex, __u8 id[FSCRYPT_KEY_IDENTIFIER_SIZE])
{
	int i;

	if (strlen(hex) != 2 * FSCRYPT_KEY_IDENTIFIER_SIZE)
		return -1;
	for (i = 0; i < FSCRYPT_KEY_IDENTIFIER_SIZE; i++)
		if (sscanf(hex + 2 * i, "%2hhx", &id[i]) != 1)
			return -1;
	return 0;
}

static int add_key(const char *mnt)
{
	struct fscrypt_add_key_arg *arg;
	size_t got = 0;
	ssize_t n;
	int fd, i;

	arg = calloc(1, sizeof(*arg) + KEY_SIZE);
	if (!arg)
		return 1;
	while (got < KEY_SIZE && (n = read(0, arg->raw + got, KEY_SIZE - got)) > 0)
		got += n;
	if (got != KEY_SIZE) {
		fprintf(stderr, "fscrypt-key: add: want %d bytes of key on stdin\n", KEY_SIZE);
		return 1;
	}
	arg->key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	arg->raw_size = KEY_SIZE;
	fd = open_path(mnt);
	if (fd < 0)
		return 1;
	if (ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, arg)) {
		fprintf(stderr, "fscrypt-key: add: %s: %s\n", mnt, strerror(errno));
		return 1;
	}
	for (i = 0; i < FSCRYPT_KEY_IDENTIFIER_SIZE; i++)
		printf("%02x", arg->key_spec.u.identifier[i]);
	putchar('\n');
	return 0;
}

static int set_policy(const char *dir, const char *hex)
{
	struct fscrypt_policy_v2 policy = {
		.version = FSCRYPT_POLICY_V2,
		.contents_encryption_mode = FSCRYPT_MODE_AES_256_XTS,
		.filenames_encryption_mode = FSCRYPT_MODE_AES_256_CTS,
		.flags = FSCRYPT_POLICY_FLAGS_PAD_32,
	};
	int fd;

	if (parse_identifier(hex, policy.master_key_identifier))
		return usage();
	fd = open_path(dir);
	if (fd < 0)
		return 1;
	if (ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &policy)) {
		fprintf(stderr, "fscrypt-key: policy: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	return 0;
}

static int remove_key(const char *mnt, const char *hex)
{
	struct fscrypt_remove_key_arg arg = {
		.key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER,
	};
	int fd;

	if (parse_identifier(hex, arg.key_spec.u.identifier))
		return usage();
	fd = open_path(mnt);
	if (fd < 0)
		return 1;
	if (ioctl(fd, FS_IOC_REMOVE_ENCRYPTION_KEY, &arg)) {
		fprintf(stderr, "fscrypt-key: remove: %s: %s\n", mnt, strerror(errno));
		return 1;
	}
	if (arg.removal_status_flags & FSCRYPT_KEY_REMOVAL_STATUS_FLAG_FILES_BUSY)
		puts("busy");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "add"))
		return add_key(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "policy"))
		return set_policy(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "remove"))
		return remove_key(argv[2], argv[3]);
	return usage();
}
