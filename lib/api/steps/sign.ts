// The signature of an answer of the public licence API (OperationSpec.signed): Ed25519 over the body's bytes as
// sent, so that an installed copy can verify it offline with the published key and keep it. Errors are signed
// too: a copy can trust a refusal as much as a licence. An answer that cannot be signed (the key cannot be
// opened) is an error a copy can tell from a forged answer: unsigned, 500.
import "server-only";

import { NextResponse } from "next/server";

import { SIGNATURE_HEADER, SIGNATURE_KEY_HEADER } from "@/lib/contract/licences";
import { licenceSigner } from "@/lib/licences/signing";
import { describeError, logEvent } from "@/lib/log";

import { ApiError } from "../errors";
import { errorResponse } from "./answer";
import { serverContextOf, type ApiRequest } from "./request";

export async function signAnswer(state: ApiRequest, reply: NextResponse): Promise<NextResponse> {
  try {
    const { server } = await serverContextOf(state);
    const signer = await licenceSigner(server.db, server.config.dataKey);
    const body = new Uint8Array(await reply.arrayBuffer());
    const signed = new NextResponse(body, { status: reply.status, headers: reply.headers });
    signed.headers.set(SIGNATURE_HEADER, signer.sign(body));
    signed.headers.set(SIGNATURE_KEY_HEADER, signer.keyId);
    return signed;
  } catch (error) {
    logEvent("error", "licence_answer_not_signed", { request_id: state.requestId, error: describeError(error) });
    return errorResponse(
      new ApiError("internal", "Gatehouse could not sign this answer: the server log says why (its request id)."),
      state.requestId,
    );
  }
}
