// The seeded test mailbox: one message per decoding case the tool must handle.
export const USER = "agent@toolshed.test";
// Quotes, a backslash and a space: LOGIN must quote it properly.
export const PASSWORD = 's3cr"et \\pass';

export const MAILBOX = [
  {
    raw: `From: Alice Example <alice@example.com>
To: agent@toolshed.test
Subject: Plain hello
Date: Tue, 10 Oct 2023 09:00:00 +0000
Message-ID: <plain@example.com>
Content-Type: text/plain; charset=us-ascii

Hello from an old plain message.
`,
  },
  {
    raw: `From: Alice Example <alice@example.com>
To: agent@toolshed.test
Subject: =?UTF-8?Q?Quarterly_r=C3=A9sum=C3=A9?=
Date: Mon, 15 Jan 2024 10:30:00 +0000
Message-ID: <qp@example.com>
MIME-Version: 1.0
Content-Type: multipart/alternative; boundary="b1"

--b1
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

Caf=C3=A9 budget: 3 =E2=82=AC per cup, a line that is long enough to be soft-=
wrapped by the encoder.
--b1
Content-Type: text/html; charset=utf-8
Content-Transfer-Encoding: quoted-printable

<p>Caf=C3=A9 budget: 3 =E2=82=AC per cup</p>
--b1--
`,
  },
  {
    raw: `From: Bob Builder <bob@example.org>
To: agent@toolshed.test
Subject: Base64 report
Date: Sat, 20 Jan 2024 08:00:00 +0000
Message-ID: <b64@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: base64

${Buffer.from("Grüße aus Berlin. The build is green.\n").toString("base64")}
`,
  },
  {
    raw: `From: =?ISO-8859-1?Q?Fran=E7ois?= <francois@example.fr>
To: agent@toolshed.test
Subject: Latin-1 note
Date: Thu, 1 Feb 2024 12:00:00 +0100
Message-ID: <latin1@example.fr>
MIME-Version: 1.0
Content-Type: text/plain; charset=ISO-8859-1
Content-Transfer-Encoding: quoted-printable

Tr=E8s bien, =E0 bient=F4t.
`,
  },
  {
    raw: `From: Alice Example <alice@example.com>
To: agent@toolshed.test
Subject: Huge newsletter
Date: Fri, 1 Mar 2024 07:00:00 +0000
Message-ID: <huge@example.com>
Content-Type: text/plain; charset=us-ascii

${"All work and no play makes a long newsletter. ".repeat(2000)}
`,
  },
  {
    folder: "Archive",
    raw: `From: Carol <carol@example.net>
To: agent@toolshed.test
Subject: Archived invoice
Date: Wed, 6 Mar 2024 16:00:00 +0000
Message-ID: <archive@example.net>
Content-Type: text/plain; charset=us-ascii

Invoice 42 is paid.
`,
  },
];
